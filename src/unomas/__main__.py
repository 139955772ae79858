"""``python -m unomas``: the command line."""

from unomas.cli import main

main()
