"""`python -m i18n extract` brings the catalogues up to date; `python -m i18n check` lists what is missing."""

from __future__ import annotations

import argparse
import sys

from .catalog import LANGUAGES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m i18n", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("extract", help="scan the code, the terms and the slash commands; update i18n/locales/*.po")
    sub.add_parser(
        "check",
        help="list untranslated messages, placeholder mismatches, translator notes missing and words the glossaries "
        "forbid (exit 1 if any)",
    )
    sub.add_parser("literals", help="list English sentences still written directly in cogs/ and render/")
    args = parser.parse_args(argv)

    if args.command == "literals":
        from .literals import find_literals

        found = find_literals()
        for lit in found:
            print(f"{lit.where}:{lit.line}: {'catalogued' if lit.known else 'NEW':10} {lit.text!r}")
        print(f"{len(found)} literals, {sum(not lit.known for lit in found)} not in the catalogues")
        return 0

    if args.command == "extract":
        from .extract import everything, update_catalogs

        report = update_catalogs(everything())
        for lang, (total, missing) in report.items():
            print(f"{lang}: {total} messages, {missing} untranslated")
        return 0

    from . import consistency
    from .checks import problems

    found = problems(LANGUAGES)
    for lang in LANGUAGES:
        found.extend(consistency.problems(lang))
    for line in found:
        print(line)
    print(f"{len(found)} problems")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
