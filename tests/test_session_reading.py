"""An evening file read again after a hand was appended to it reads only the new hand
(io.sessionfile keeps what it read): what it gives is what reading the whole file gives."""

from hypothesis import given, settings
from hypothesis import strategies as st

from mjscore.io import sessionfile
from mjscore.io.sessionfile import read_session

HANDS = ["E: score 40 win self\nS: ...\nW: ...\nN: ...", "draw", "# a comment only", "",
         "penalty Ann 10\nW: score 48 win from S\nE: score 8\nS: ...\nN: score 16", "  \n", "E: 12x  # wrong",
         "paying add-up\nE: score 8 win self"]


def fresh(text, name):
    sessionfile._LAST_READ.clear()
    return read_session(text, name)


def plain(session):
    return (session.header, session.head,
            [(h.line, h.text, h.read.args, h.read.keywords) for h in session.hands])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(HANDS), st.just(None)), max_size=14),
       st.sampled_from(["", "start 1000\n"]), st.sampled_from(["---\n", "--- \n", "---\r\n"]),
       st.booleans())
def test_reading_an_evening_a_hand_at_a_time_is_reading_it_whole(steps, head, separator, again):
    """Hands appended (`add`) and the last one cut off (`undo`, None here), in any order."""
    name = "ev.mj"
    text = f"players Ann Bob Cid Dee\n{head}---\n"
    sessionfile._LAST_READ.clear()
    read_session(text, name)
    for hand in steps:
        if hand is None:
            at = max(text.rfind("\n---\n"), text.rfind("\n--- \n"), text.rfind("\n---\r\n"))
            if at <= text.find("---"):
                continue
            text = text[:at + 1]
        else:
            text = text + (separator if not text.endswith("---\n") else "") + hand + "\n"
        known = read_session(text, name)
        assert plain(known) == plain(fresh(text, name)), text
        if again:
            read_session(text, name)                  # the next step from the text read whole


def test_a_file_that_changed_otherwise_is_read_whole():
    name = "ev.mj"
    sessionfile._LAST_READ.clear()
    first = "players Ann Bob Cid Dee\n---\nE: score 40 win self\nS: ...\nW: ...\nN: ...\n"
    read_session(first, name)
    edited = first.replace("score 40", "score 48") + "---\ndraw\n"
    assert plain(read_session(edited, name)) == plain(fresh(edited, name))
    assert read_session(edited, "other.mj").header.where.file == "other.mj"
