"""``python -m bunseki`` is the ``bunseki`` command."""

from bunseki.cli import main

main()
