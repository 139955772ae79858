"""``python -m unomas``: the command line."""

from unomas.console import main

main()
