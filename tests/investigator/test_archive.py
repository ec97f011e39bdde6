"""Unpacking case archives: the shapes people pack cases in work; anything that could escape or lie is refused."""

from __future__ import annotations

import io
import tarfile
import zipfile
from pathlib import Path

import pytest

from bunseki.errors import CaseArchiveError, UnsupportedFileType, UploadTooLarge
from bunseki.investigation.archive import ArchiveLimits, extract_case


def _tar(path: Path, members: list[tuple[str, bytes | None]]) -> Path:
    """A tar.gz whose members are files (bytes) or folders (None), in order."""
    with tarfile.open(path, "w:gz") as archive:
        for name, data in members:
            info = tarfile.TarInfo(name)
            if data is None:
                info.type = tarfile.DIRTYPE
                archive.addfile(info)
            else:
                info.size = len(data)
                archive.addfile(info, io.BytesIO(data))
    return path


def _zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def test_a_tar_of_a_folder_with_its_dot_entry_unpacks(tmp_path: Path) -> None:
    archive = _tar(tmp_path / "c.tgz", [("./", None), ("./case.yaml", b"name: c\n"), ("./code/a.py", b"x = 1\n")])
    manifest = extract_case(archive, tmp_path / "out")
    assert manifest == tmp_path / "out" / "case.yaml"
    assert (tmp_path / "out" / "code" / "a.py").read_text() == "x = 1\n"


def test_the_manifest_nearest_the_top_is_chosen_and_mac_leftovers_ignored(tmp_path: Path) -> None:
    archive = _zip(
        tmp_path / "c.zip",
        {
            "__MACOSX/._case.yaml": b"\x00\x05",
            "wrapped/case.yaml": b"name: c\n",
            "wrapped/other.yml": b"x: 1\n",
            "wrapped/deeper/case.yaml": b"name: d\n",
        },
    )
    assert extract_case(archive, tmp_path / "out") == tmp_path / "out" / "wrapped" / "case.yaml"


def test_a_json_manifest_as_the_seed_writes_one_is_found_and_other_json_is_not(tmp_path: Path) -> None:
    members = {"case/package.json": b"{}", "case/case.json": b"{'codes': ['a.py'], 'datasets': []}"}
    assert extract_case(_zip(tmp_path / "c.zip", members), tmp_path / "out") == tmp_path / "out" / "case" / "case.json"
    with pytest.raises(CaseArchiveError, match="no case manifest"):
        extract_case(_zip(tmp_path / "d.zip", {"config.json": b"{}"}), tmp_path / "out2")


def test_several_equally_near_yaml_files_without_case_yaml_are_ambiguous(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "c.zip", {"a.yaml": b"x: 1\n", "b.yaml": b"x: 2\n"})
    with pytest.raises(CaseArchiveError, match="several YAML files"):
        extract_case(archive, tmp_path / "out")


@pytest.mark.parametrize(
    "name", ["../x.py", "a/../../x.py", "/abs/x.py", "C:/x.py", "a\\..\\..\\x.py"], ids=lambda n: repr(n)
)
def test_names_that_leave_the_target_are_refused_before_they_are_written(tmp_path: Path, name: str) -> None:
    archive = _zip(tmp_path / "c.zip", {"case.yaml": b"name: c\n", name: b"print(1)\n"})
    with pytest.raises(CaseArchiveError, match="outside the archive"):
        extract_case(archive, tmp_path / "deep" / "out")
    assert [p.name for p in tmp_path.rglob("x.py")] == []


def test_a_member_twice_or_a_file_where_a_folder_is_is_refused(tmp_path: Path) -> None:
    twice = _tar(tmp_path / "t.tgz", [("case.yaml", b"a"), ("case.yaml", b"b")])
    with pytest.raises(CaseArchiveError, match="twice"):
        extract_case(twice, tmp_path / "one")
    clash = _tar(tmp_path / "c.tgz", [("case.yaml", b"a"), ("d", b"file"), ("d/x.py", b"x")])
    with pytest.raises(CaseArchiveError, match="clashes"):
        extract_case(clash, tmp_path / "two")


def test_limits_count_members_declared_sizes_and_the_total(tmp_path: Path) -> None:
    limits = ArchiveLimits(max_total_bytes=100, max_file_bytes=60, max_members=3)
    many = _zip(tmp_path / "m.zip", {f"f{i}.txt": b"" for i in range(4)})
    with pytest.raises(UploadTooLarge, match="more than 3 members"):
        extract_case(many, tmp_path / "a", limits)
    big = _zip(tmp_path / "b.zip", {"case.yaml": b"0" * 61})
    with pytest.raises(UploadTooLarge, match="larger than"):
        extract_case(big, tmp_path / "b", limits)
    total = _zip(tmp_path / "t.zip", {"case.yaml": b"0" * 60, "x.csv": b"0" * 50})
    with pytest.raises(UploadTooLarge, match="unpacks to more than"):
        extract_case(total, tmp_path / "c", limits)


def test_a_damaged_or_foreign_file_is_not_an_archive(tmp_path: Path) -> None:
    good = _tar(tmp_path / "c.tgz", [("case.yaml", b"name: c\n" * 2000)]).read_bytes()
    (tmp_path / "cut.tgz").write_bytes(good[: len(good) // 2])
    (tmp_path / "text.zip").write_bytes(b"frame,x\n1,2\n")
    for name in ("cut.tgz", "text.zip"):
        with pytest.raises(UnsupportedFileType):
            extract_case(tmp_path / name, tmp_path / f"out-{name}")
