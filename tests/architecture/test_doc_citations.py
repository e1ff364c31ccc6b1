"""Every rule and document the code cites is in the repository.

- ``rules.md §N`` (also ``regole §N``, ``§N, §M``, ``§N–M``, ``§N.M``): the project cites only
  ``docs/rules.md`` by section, so every ``§`` number in code, templates, tests and documents
  must be a heading ``## N.`` (``### N.M.``) of ``docs/rules.md`` — unless the same line names
  another ``.md`` document right before it;
- ``pairing-io.md "Section"`` (or ``pairing-io.md §N``): a heading of ``docs/pairing-io.md``;
- ``name.md`` named anywhere: a file of the repository;
- a Markdown link to a local file (``[x](path.md#anchor)``): the file exists and, with an
  anchor, has a heading of that slug (GitHub's rule: lower case, punctuation dropped, spaces
  to hyphens).
"""
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.pure

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules.md"
PAIRING_IO = ROOT / "docs" / "pairing-io.md"
SKIP_DIRS = {".venv", ".git", "var", "node_modules", "__pycache__"}
SUFFIXES = {".py", ".html", ".js", ".md", ".txt", ".po", ".ini", ".sh", ".conf"}
#: sections of the rules the project took in (§1–§22); a heading may be added, never lost
RULE_SECTIONS = 22

SECTION = re.compile(r"§\s*(\d+)(?:\.(\d+))?(?:\s*[–-]\s*§?\s*(\d+)\b)?")
OTHER_DOC = re.compile(r"([\w-]+)\.md\b")
PAIRING_IO_SECTION = re.compile(r"pairing-io\.md`?[,:]?\s*\(?\s*[\"“]([^\"”\n]+)[\"”]")
PAIRING_IO_NUMBER = re.compile(r"pairing-io\.md`?,?\s*§\s*(\d+(?:\.\d+)?)")
DOC_NAME = re.compile(r"(?<![\w-])((?:\.{1,2}/)*(?:[\w-]+/)*[\w-]+\.md)\b")
MD_LINK = re.compile(r"\]\(([^)\s#]+\.md)?(#[^)\s]+)?\)")
HEADING = re.compile(r"^#+\s+(.+?)\s*$", re.M)


def sources() -> list[Path]:
    """Every text file of the repository a citation may sit in (code, templates, tests,
    documents, the translation catalogue), outside the virtualenv, git and run-time data;
    not this file, whose examples cite what does not exist on purpose."""
    found = []
    for path in ROOT.rglob("*"):
        rel = path.relative_to(ROOT)
        if SKIP_DIRS & set(rel.parts[:-1]) or not path.is_file() or path == Path(__file__).resolve():
            continue
        if path.suffix in SUFFIXES or path.name == "Makefile":
            found.append(path)
    return sorted(found)


def rule_headings(text: str) -> set[str]:
    """The section numbers ``"N"`` and ``"N.M"`` headed in a rules document's ``text``."""
    return set(re.findall(r"^#{2,}\s*(?:§\s*)?(\d+(?:\.\d+)?)[.)\s]", text, re.M))


def cited_sections(text: str) -> set[str]:
    """The rule sections ``text`` cites with ``§`` (``"N"`` or ``"N.M"``; a range ``§N–M``
    gives every section from N to M); a ``§`` whose line names another ``.md`` document than
    rules.md just before it is that document's, not the rules'."""
    cited = set()
    for line in text.splitlines():
        for match in SECTION.finditer(line):
            before = OTHER_DOC.findall(line[: match.start()])
            if before and before[-1] not in ("rules", "Rules"):
                continue
            first, sub, last = match.groups()
            if sub:
                cited.add(f"{first}.{sub}")
            cited |= {str(n) for n in range(int(first), int(last or first) + 1)}
    return cited


def slug(heading: str) -> str:
    """GitHub's anchor for a Markdown heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of ``path``'s headings."""
    return {slug(h) for h in HEADING.findall(path.read_text(encoding="utf-8"))}


def doc_exists(name: str, cited_in: Path, md_files: set[str]) -> bool:
    """Whether the document ``name`` cited in ``cited_in`` is in the repository: a path, from
    the citing file's folder, the repository or ``docs/``, that stays inside the repository;
    a bare name, any ``.md`` file of the repository by that name, whatever its case (code
    cites ``season.md`` for ``docs/season.md``; a sentence may begin with ``Rules.md``).
    ``md_files`` holds the repository's ``.md`` file names in lower case."""
    if "/" not in name:
        return name.lower() in md_files
    for base in (cited_in.parent, ROOT, ROOT / "docs"):
        path = (base / name).resolve()
        if path.is_file() and path.is_relative_to(ROOT):
            return True
    return False


def test_the_rules_have_every_section_the_project_took_in():
    assert {str(n) for n in range(1, RULE_SECTIONS + 1)} <= rule_headings(RULES.read_text(encoding="utf-8"))


def test_every_cited_rule_section_is_a_heading_of_docs_rules_md():
    headings = rule_headings(RULES.read_text(encoding="utf-8"))
    missing = {}
    for path in sources():
        lost = cited_sections(path.read_text(encoding="utf-8")) - headings
        if lost:
            missing[path.relative_to(ROOT).as_posix()] = sorted(lost)
    assert not missing, f"cited sections with no heading in docs/rules.md: {missing}"


def test_every_cited_section_of_the_pairing_contract_is_a_heading_of_docs_pairing_io_md():
    text = PAIRING_IO.read_text(encoding="utf-8")
    headings = set(HEADING.findall(text)) | rule_headings(text)
    missing = {}
    for path in sources():
        source = path.read_text(encoding="utf-8")
        cited = set(PAIRING_IO_SECTION.findall(source)) | set(PAIRING_IO_NUMBER.findall(source))
        lost = cited - headings
        if lost:
            missing[path.relative_to(ROOT).as_posix()] = sorted(lost)
    assert not missing, f"cited sections with no heading in docs/pairing-io.md: {missing}"


def test_every_cited_document_is_in_the_repository():
    md_files = {p.name.lower() for p in sources() if p.suffix == ".md"}
    missing = {}
    for path in sources():
        lost = {n for n in DOC_NAME.findall(path.read_text(encoding="utf-8"))
                if not doc_exists(n, path, md_files)}
        if lost:
            missing[path.relative_to(ROOT).as_posix()] = sorted(lost)
    assert not missing, f"documents cited but not in the repository: {missing}"


def test_every_local_markdown_link_and_its_anchor_resolve():
    broken = []
    for path in sources():
        if path.suffix != ".md":
            continue
        for target, anchor in MD_LINK.findall(path.read_text(encoding="utf-8")):
            if target.startswith(("http:", "https:")):
                continue
            file = (path.parent / target) if target else path
            if not file.is_file():
                broken.append(f"{path.relative_to(ROOT)} → {target}")
            elif anchor and anchor[1:] not in anchors(file):
                broken.append(f"{path.relative_to(ROOT)} → {target}{anchor}")
    assert not broken, f"links that lead nowhere: {broken}"


# The finders themselves, on citations written for the purpose (a finder that found nothing
# would let every test above pass).

def test_a_section_number_with_no_heading_is_found_in_every_citation_form():
    # written with a placeholder, so that no tool reading this file counts §23 as cited
    text = ("rules.md §{n}: x\n(regole §24)\nrules.md §5, §25\n§26–28 and §9.4\n"
            "art. 31 ¶1, rules §1\n").format(n=23)
    cited = cited_sections(text)
    assert {"23", "24", "25", "26", "27", "28", "9.4", "9", "5", "1"} <= cited
    assert cited - rule_headings("## 1. A\n## 5. B\n## 9. C\n") == {
        "23", "24", "25", "26", "27", "28", "9.4"}


def test_a_section_sign_after_another_document_is_not_a_rule_citation():
    assert cited_sections("see security.md §40 for the caps") == set()
    assert cited_sections("rules.md §3, not security.md") == {"3"}


def test_a_numbered_heading_counts_with_or_without_the_section_sign():
    assert rule_headings("## 3. The sheet\n### 3.2 Kinds\n## §4. VP\n# Title 5\n") == {"3", "3.2", "4"}


def test_a_missing_document_and_a_wrong_anchor_are_found():
    md_files = {"rules.md", "season.md"}
    assert doc_exists("season.md", RULES, md_files)
    assert not doc_exists("architecture.md", RULES, md_files)
    assert not doc_exists("../shared/spec/rules.md", RULES, md_files)
    assert not doc_exists("../../shared/spec/rules.md", RULES, md_files)
    assert doc_exists("Rules.md", RULES, md_files)
    assert doc_exists("docs/rules.md", ROOT / "README.md", md_files)
    assert slug("14. Round robin and groups") == "14-round-robin-and-groups"
    assert slug("Modified Danish: «ultimo turno: rivincite ammesse»") == \
        "modified-danish-ultimo-turno-rivincite-ammesse"


def test_a_cited_pairing_contract_section_is_read_in_every_quoting_form():
    text = ('pairing-io.md "Round robin"; (pairing-io.md, "Request") '
            '`pairing-io.md` ("Groups") pairing-io.md: “Danish”')
    assert set(PAIRING_IO_SECTION.findall(text)) == {"Round robin", "Request", "Groups", "Danish"}
    assert PAIRING_IO_NUMBER.findall("pairing-io.md §{n}, `pairing-io.md`, §{n}.1".format(n=2)) == ["2", "2.1"]
