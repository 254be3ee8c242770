"""The app on the table's network: LAN addresses, a cached self-signed certificate for them
(`jxmj app --https`), and the join URL as a QR code.

Phones allow the camera only on https (or localhost), so a phone at the table needs
`https://<this machine>:8501`. `ensure_certificate()` makes one self-signed certificate for
this machine's names and LAN addresses (with `cryptography`), once: it is kept in the user's
data directory and made again only when it is missing, expires within 30 days, or does not
name an address the machine has now. The browser warns once ("not private": nobody vouches
for a self-signed certificate); accepting it on each phone is safe on the table's own network.

No network is used: the LAN address is read from the routing table (a UDP socket that is
never sent on).
"""

from __future__ import annotations

import datetime as dt
import functools
import io
import ipaddress
import socket
from pathlib import Path

from platformdirs import user_data_dir

CERT_NAME, KEY_NAME = "jxmj-cert.pem", "jxmj-key.pem"
VALID_DAYS = 397
RENEW_DAYS = 30


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses a phone on the same network can reach (loopback excluded),
    the one of the default route first; may be empty (no network)."""
    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))  # UDP: picks the outgoing interface, sends nothing
            found.append(s.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    except OSError:
        pass
    return [a for a in dict.fromkeys(found) if not ipaddress.ip_address(a).is_loopback]


def join_url(port: int | str, https: bool, addresses: list[str] | None = None) -> str:
    """The URL other players open: this machine's LAN address (else localhost)."""
    addresses = lan_addresses() if addresses is None else addresses
    host = addresses[0] if addresses else "localhost"
    return f"{'https' if https else 'http'}://{host}:{port}"


def cert_dir() -> Path:
    return Path(user_data_dir("jxmj", appauthor=False)) / "tls"


def ensure_certificate(
    directory: Path | None = None, addresses: list[str] | None = None
) -> tuple[Path, Path]:
    """`(cert.pem, key.pem)` for this machine, made once and reused (see the module docstring).

    The certificate names `localhost`, the host name, 127.0.0.1 and every LAN address.
    """
    from cryptography import x509

    directory = directory or cert_dir()
    addresses = lan_addresses() if addresses is None else addresses
    cert_path, key_path = directory / CERT_NAME, directory / KEY_NAME
    ips = ["127.0.0.1", *addresses]
    if cert_path.is_file() and key_path.is_file():
        try:
            cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
            names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
            have = {str(ip) for ip in names.get_values_for_type(x509.IPAddress)}
            fresh = cert.not_valid_after_utc - dt.timedelta(days=RENEW_DAYS) > dt.datetime.now(dt.UTC)
            if fresh and set(ips) <= have:
                return cert_path, key_path
        except (ValueError, x509.ExtensionNotFound):
            pass  # unreadable or foreign: make a new one
    _write_certificate(cert_path, key_path, ips)
    return cert_path, key_path


def _write_certificate(cert_path: Path, key_path: Path, ips: list[str]) -> None:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "jxmj on this table")])
    now = dt.datetime.now(dt.UTC)
    hosts = dict.fromkeys(["localhost", socket.gethostname()])
    alt = [x509.DNSName(h) for h in hosts if h] + [x509.IPAddress(ipaddress.ip_address(a)) for a in ips]
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=VALID_DAYS))
        .add_extension(x509.SubjectAlternativeName(alt), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(key, hashes.SHA256())
    )
    cert_path.parent.mkdir(parents=True, exist_ok=True)
    key_bytes = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    tmp = key_path.with_suffix(".tmp")
    tmp.write_bytes(key_bytes)
    tmp.chmod(0o600)
    tmp.replace(key_path)
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))


def qr_terminal(url: str) -> str:
    """The URL as a QR code drawn with block characters, for the terminal."""
    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


@functools.lru_cache(maxsize=16)
def qr_svg(url: str, scale: int = 4) -> str:
    """The URL as an inline SVG QR code, for the page (made once per URL: the header draws it
    on every rerun, ~5 ms each)."""
    import segno

    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=scale, border=2, xmldecl=False, svgns=True)
    return out.getvalue().decode("utf-8")


__all__ = ["cert_dir", "ensure_certificate", "join_url", "lan_addresses", "qr_svg", "qr_terminal"]
