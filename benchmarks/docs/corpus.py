"""Real documentation no one here wrote, from Debian packages: the knowledge chat's public corpus.

    python benchmarks/docs/corpus.py DIR     # builds the corpus under DIR and lists its files

The documents are installed from Debian's archive (`apt-get install`, run by this module when it is
root; otherwise it prints the one command to run) and copied as they are: HTML pages of the Debian
FAQ, the Debian Reference (the same chapter in Japanese and English), aptitude's Japanese manual,
the reStructuredText sources of the Debian Policy and the Developer's Reference (English originals,
as their Japanese packages ship them), Python's English HTML reference. Man pages, Japanese and
English, are rendered to plain text with groff, as someone saves `man ls` to a file: their option
lists are indented definition lists.

The corpus is only read here, never shipped: questions over it are in `benchmarks/docs/questions_*.py`.
"""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Final

PACKAGES: Final = (
    "debian-faq-ja",
    "debian-reference-ja",
    "debian-reference-en",
    "debian-policy-ja",
    "developers-reference-ja",
    "aptitude-doc-ja",
    "manpages-ja",
    "python3-doc",
    "groff",
    "coreutils",
    "tar",
    "gzip",
    "grep",
)

_FAQ: Final = Path("/usr/share/doc/debian/FAQ/ja")
_REFERENCE: Final = Path("/usr/share/debian-reference")
_APTITUDE: Final = Path("/usr/share/doc/aptitude/html/ja")
_DEVREF: Final = Path("/usr/share/developers-reference/ja/_sources")
_POLICY: Final = Path("/usr/share/doc/debian-policy/ja/policy.html/_sources")
_PYTHON: Final = Path("/usr/share/doc/python3.11/html")

# corpus name -> installed file, copied as it is
COPIED: Final[dict[str, Path]] = {
    **{
        f"debian-faq/{page}.ja.html": _FAQ / f"{page}.ja.html"
        for page in (
            "basic-defs",
            "choosing",
            "compatibility",
            "customizing",
            "getting-debian",
            "kernel",
            "pkg-basics",
            "pkgtools",
            "software",
            "support",
            "uptodate",
        )
    },
    "debian-reference/ch04.ja.html": _REFERENCE / "ch04.ja.html",
    "debian-reference/ch04.en.html": _REFERENCE / "ch04.en.html",
    "aptitude/rn01re01.html": _APTITUDE / "rn01re01.html",  # aptitude(8): the command line
    "aptitude/ch02s01s02.html": _APTITUDE / "ch02s01s02.html",
    "aptitude/ch02s03s04.html": _APTITUDE / "ch02s03s04.html",
    "developers-reference/tools.rst.txt": _DEVREF / "tools.rst.txt",
    "developers-reference/new-maintainer.rst.txt": _DEVREF / "new-maintainer.rst.txt",
    "developers-reference/l10n.rst.txt": _DEVREF / "l10n.rst.txt",
    "debian-policy/ch-controlfields.rst.txt": _POLICY / "ch-controlfields.rst.txt",
    "debian-policy/ch-docs.rst.txt": _POLICY / "ch-docs.rst.txt",
    "python/venv.html": _PYTHON / "library" / "venv.html",
    "python/cmdline.html": _PYTHON / "using" / "cmdline.html",
}
# man pages rendered to text: (language, name)
MAN_PAGES: Final = (
    *(("ja", name) for name in ("ls", "cp", "mv", "rm", "mkdir", "chmod", "du", "df", "sort", "date", "head", "tail")),
    *(("en", name) for name in ("tar", "gzip", "grep", "cut", "wc", "xargs", "sort")),
)


def install() -> None:
    """Install the documentation packages (as root), or say the one command that does."""
    missing = [name for name in PACKAGES if not _installed(name)]
    if not missing:
        return
    command = ["apt-get", "install", "-y", "-q", *missing]
    if os.geteuid() != 0:
        raise SystemExit(f"the corpus needs Debian packages; run as root: {' '.join(command)}")
    environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(command, check=True, env=environment, stdout=subprocess.DEVNULL)


def _installed(package: str) -> bool:
    status = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True)
    return status.returncode == 0 and status.stdout.endswith("installed")


def render_man(source: Path) -> str:
    """A man page as `man` shows it (plain UTF-8 text, 80 columns, no overstrikes)."""
    roff = gzip.decompress(source.read_bytes()) if source.suffix == ".gz" else source.read_bytes()
    rendered = subprocess.run(
        ["groff", "-Kutf8", "-Tutf8", "-mandoc", "-rLL=78n", "-P-cbou"],
        input=roff,
        capture_output=True,
        check=True,
    ).stdout.decode("utf-8")
    return rendered


def build(root: Path) -> list[Path]:
    """The corpus under ``root`` (built once; kept when it is there already)."""
    install()
    written = []
    for name, source in COPIED.items():
        target = root / name
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
        written.append(target)
    for language, page in MAN_PAGES:
        target = root / "man" / language / f"{page}.1.txt"
        if not target.exists():
            folder = Path("/usr/share/man/ja/man1" if language == "ja" else "/usr/share/man/man1")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(render_man(folder / f"{page}.1.gz"), encoding="utf-8")
        written.append(target)
    return written


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.splitlines()[2].strip(), file=sys.stderr)
        return 2
    root = Path(sys.argv[1])
    for path in build(root):
        print(path.relative_to(root), path.stat().st_size)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
