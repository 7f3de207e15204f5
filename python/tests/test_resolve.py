"""check_batch(resolve=...) against `urlscope check --resolve`: the same rows, the same DNS
server (this test's own, on 127.0.0.1: no query leaves the machine), the same findings."""

import json
import socket
import struct
import threading

import pytest

import urlscope

# The zone: name -> A records; "missing.test" is NXDOMAIN, "silent.test" is never answered.
ZONE = {
    "intranet.test": ["10.0.0.5"],
    "public.test": ["93.184.215.14"],
}


def _name(packet, offset):
    labels = []
    while packet[offset]:
        n = packet[offset]
        labels.append(packet[offset + 1 : offset + 1 + n].decode("ascii"))
        offset += 1 + n
    return ".".join(labels).lower(), offset + 1


def _answer(query):
    """A response to `query` (RFC 1035 § 4.1), or None to stay silent."""
    ident, flags = struct.unpack("!HH", query[:4])
    name, end = _name(query, 12)
    qtype, qclass = struct.unpack("!HH", query[end : end + 4])
    question = query[12 : end + 4]
    if name == "silent.test":
        return None
    rcode = 3 if name == "missing.test" else 0
    records = [a for a in ZONE.get(name, [])] if qtype == 1 else []
    header = struct.pack("!HHHHHH", ident, 0x8180 | (flags & 0x0100) | rcode, 1, len(records), 0, 0)
    answers = b"".join(
        b"\xc0\x0c" + struct.pack("!HHIH", 1, 1, 60, 4) + socket.inet_aton(a) for a in records
    )
    return header + question + answers


@pytest.fixture()
def dns_server():
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    asked = []

    def serve():
        while True:
            try:
                query, peer = sock.recvfrom(4096)
            except OSError:
                return
            asked.append(_name(query, 12)[0])
            response = _answer(query)
            if response is not None:
                sock.sendto(response, peer)

    threading.Thread(target=serve, daemon=True).start()
    yield "127.0.0.1:%d" % sock.getsockname()[1], asked
    sock.close()


ROWS = [
    "http://intranet.test/",
    "http://public.test/",
    "http://missing.test/",
    "http://silent.test/",
    "http://127.0.0.1/",
    "http://company.127.0.0.1.nip.io/",
]


@pytest.mark.parametrize("deny_internal", [False, True])
def test_check_batch_resolves_as_the_command_line_does(cli, dns_server, deny_internal):
    server, asked = dns_server
    rows = urlscope.check_batch(
        ROWS, resolve=True, dns_server=server, resolve_timeout=0.5, deny_internal=deny_internal
    ).to_pylist()
    flags = ["--dns-server", server, "--resolve-timeout", "0.5"] + (["--deny-internal"] if deny_internal else [])
    lines = [json.loads(line) for line in cli(["check", "--json", *flags], "\n".join(ROWS).encode())]
    for row, line, url in zip(rows, lines, ROWS):
        ids = [(f["id"], f["severity"]) for f in row["findings"]]
        assert ids == [(f["id"], f["severity"]) for f in line["findings"]], url
    by_url = dict(zip(ROWS, rows))
    intranet = [f["id"] for f in by_url["http://intranet.test/"]["findings"]]
    assert intranet == (["internal-destination"] if deny_internal else ["resolves-internal"])
    assert by_url["http://intranet.test/"]["fail"] is deny_internal
    assert by_url["http://public.test/"]["findings"] == []
    for url in ("http://missing.test/", "http://silent.test/"):
        ids = [(f["id"], f["severity"]) for f in by_url[url]["findings"]]
        assert ids == [("lookup-failed", "danger" if deny_internal else "warn")], url
    # Addresses and the wildcard service's name are never asked.
    assert set(asked) <= {"intranet.test", "public.test", "missing.test", "silent.test"}


def test_check_batch_refuses_bad_lookup_options():
    with pytest.raises(ValueError, match="dns_server"):
        urlscope.check_batch(["http://a.test/"], dns_server="localhost")
    with pytest.raises(ValueError, match="resolve_timeout"):
        urlscope.check_batch(["http://a.test/"], resolve=True, resolve_timeout=0)
