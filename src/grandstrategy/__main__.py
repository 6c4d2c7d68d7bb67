"""Allow ``python -m grandstrategy``."""

from grandstrategy.cli import main

main()
