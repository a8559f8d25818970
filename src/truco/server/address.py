"""The addresses to print at start-up: the one for this computer and the one for phones on the LAN."""

from __future__ import annotations

import socket


def lan_address() -> str | None:
    """This machine's address on its local network, or ``None``.

    Connecting a UDP socket only picks a route; no packet is sent.
    """
    for probe in ("10.255.255.255", "192.168.255.255"):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            s.connect((probe, 1))
            ip: str = s.getsockname()[0]
        except OSError:
            continue
        finally:
            s.close()
        if ip and not ip.startswith("127.") and ip != "0.0.0.0":
            return ip
    return None


def open_urls(host: str, port: int) -> list[tuple[str, str]]:
    """(who, url) pairs to print: this computer first, then phones on the same Wi-Fi when reachable."""
    local = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    urls = [("this computer", f"http://{local}:{port}/")]
    lan = lan_address()
    if host in ("0.0.0.0", "::", "") and lan:
        urls.append(("phones on the same Wi-Fi", f"http://{lan}:{port}/"))
    elif host not in ("127.0.0.1", "localhost", "::1"):
        urls = [("this computer and phones on the same network", f"http://{host}:{port}/")]
    return urls
