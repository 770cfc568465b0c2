"""`python -m redline.service …`: the `redline serve` command on its own."""

import typer

from redline.service.serve_cli import serve

if __name__ == "__main__":
    typer.run(serve)
