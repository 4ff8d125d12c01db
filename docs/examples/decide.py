#!/usr/bin/env python3
"""Ask a robotskit service whether a crawler may fetch URLs (POST /api/decide, NDJSON streaming).

    ROBOTSKIT_TOKEN=… python3 decide.py http://127.0.0.1:8080 MyBot < urls.txt

Prints one line per URL, in input order: allowed or blocked, the URL, the deciding line, the crawl delay."""
import json, os, sys, urllib.request


def decide(service, crawler, urls, token=None):
    """Yields one decision (a dict) per URL, in order, as the service streams them (at most 10,000 URLs a call)."""
    headers = {"Content-Type": "application/json", "Accept": "application/x-ndjson"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    body = json.dumps({"crawler": crawler, "urls": urls}).encode()
    request = urllib.request.Request(f"{service}/api/decide", data=body, headers=headers)
    with urllib.request.urlopen(request) as response:
        for line in response:
            yield json.loads(line)


if __name__ == "__main__":
    urls = [line.strip() for line in sys.stdin if line.strip()]
    for d in decide(sys.argv[1], sys.argv[2], urls, os.environ.get("ROBOTSKIT_TOKEN")):
        if "error" in d:
            print("error", d["url"], d["error"]["message"], sep="\t")
        else:
            print("allowed" if d["allowed"] else "blocked", d["url"], d["line"], d["crawlDelay"], sep="\t")
