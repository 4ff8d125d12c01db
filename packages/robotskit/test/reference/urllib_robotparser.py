"""Verdicts of Python's urllib.robotparser, the executable reference of robotskit's `legacy` dialect.

Reads one JSON document on stdin:
  {"files": [{"robots_b64": "...", "checks": [["Googlebot", "https://h/p"], ...], "fixes": [[], ["bom"], ...]}]}
and writes {"verdicts": [[[true, false, ...], ...], ...]}: for each file, for each fix set, one verdict per check.

urllib.robotparser itself is used unchanged. A fix set names deviations of the legacy dialect from it (see
src/dialects/legacy.ts); each fix transforms the input or the URL (or swaps in a rule class) so that urllib reads it
the way the legacy dialect does on that one point. An empty fix set is urllib as it is.

The file's bytes are decoded as UTF-8 with invalid bytes replaced (urllib's read() would raise on them).
"""

import base64
import json
import re
import sys
import urllib.parse
import urllib.robotparser as robotparser

FIXES = {
    "bom",
    "whitespace-line",
    "line-breaks",
    "fragment",
    "empty-path",
    "rule-reparse",
    "encoded-slash",
    "agent-escapes",
    "limits",
}

MAX_BYTES = 512000
MAX_LINE_BYTES = 16663
ASCII_SPACE = " \t\n\v\f\r"
ENCODED_SLASH = re.compile(r"%2[fF]")
# Stands for %2F on both sides: never decoded to "/", and never present in real input.
SLASH_STAND_IN = "\ue000"


class LiteralRuleLine(robotparser.RuleLine):
    """A rule whose value is used as written: quoted, without the urlparse/urlunparse round trip."""

    def __init__(self, path, allowance):
        self.allowance = True if path == "" else allowance
        self.path = urllib.parse.quote(path)


def key_of(line):
    head = line.split("#", 1)[0]
    return head.split(":", 1)[0].strip().lower() if ":" in head else None


def lines_of(raw, fixes):
    if "bom" in fixes:
        for bom in (b"\xef\xbb\xbf", b"\xef\xbb", b"\xef"):
            if raw.startswith(bom):
                raw = raw[len(bom):]
                break
    if "limits" in fixes:
        raw = raw[:MAX_BYTES]
    if "line-breaks" in fixes:
        byte_lines = re.split(rb"\r\n|\r|\n", raw)
        if "limits" in fixes:
            byte_lines = [l.split(b"\0", 1)[0][:MAX_LINE_BYTES] for l in byte_lines]
        lines = [l.decode("utf-8", errors="replace") for l in byte_lines]
    else:
        lines = raw.decode("utf-8", errors="replace").splitlines()
        if "limits" in fixes:
            lines = [l.split("\0", 1)[0] for l in lines]
    out = []
    for line in lines:
        if "whitespace-line" in fixes and line.strip(ASCII_SPACE) == "":
            line = ""
        key = key_of(line)
        if key is not None:
            name, value = line.split(":", 1)
            if "agent-escapes" in fixes and key == "user-agent":
                value = value.replace("%", "%25")
            if "encoded-slash" in fixes and key in ("allow", "disallow"):
                value = ENCODED_SLASH.sub(SLASH_STAND_IN, value)
            line = name + ":" + value
        out.append(line)
    return out


def url_for(url, fixes):
    if "fragment" in fixes:
        url = url.split("#", 1)[0]
    if "empty-path" in fixes:
        parts = urllib.parse.urlparse(url)
        if parts.path == "":
            url = urllib.parse.urlunparse(parts._replace(path="/"))
    if "encoded-slash" in fixes:
        url = ENCODED_SLASH.sub("%EE%80%80", url)
    return url


def parser_for(raw, fixes):
    parser = robotparser.RobotFileParser()
    original = robotparser.RuleLine
    if "rule-reparse" in fixes:
        robotparser.RuleLine = LiteralRuleLine
    try:
        parser.parse(lines_of(raw, fixes))
    finally:
        robotparser.RuleLine = original
    return parser


def main():
    request = json.load(sys.stdin)
    verdicts = []
    for entry in request["files"]:
        raw = base64.b64decode(entry["robots_b64"])
        per_fix = []
        for fixes in entry["fixes"]:
            unknown = set(fixes) - FIXES
            if unknown:
                raise SystemExit(f"unknown fixes: {sorted(unknown)}")
            parser = parser_for(raw, set(fixes))
            per_fix.append([parser.can_fetch(ua, url_for(url, set(fixes))) for ua, url in entry["checks"]])
        verdicts.append(per_fix)
    json.dump({"verdicts": verdicts}, sys.stdout)


if __name__ == "__main__":
    main()
