from mjscore.cli import main

main()
