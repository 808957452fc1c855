"""The shipped deployment files: the systemd units restart Mapsmith and start it at boot; nginx accepts the site."""

from __future__ import annotations

import configparser
import shutil
import subprocess
from pathlib import Path

import pytest

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # systemd keys are case-sensitive
    parser.read_string(Path(DEPLOY / name).read_text())
    return parser


@pytest.mark.parametrize("name", ["mapsmith.service", "mapsmith@.service"])
def test_units_restart_always_and_start_at_boot(name):
    u = unit(name)
    assert u["Service"]["Restart"] == "always"
    assert u["Install"]["WantedBy"] == "multi-user.target"
    assert "mapsmith serve" in u["Service"]["ExecStart"]
    assert int(u["Service"]["LimitNOFILE"]) >= 10_000  # room for thousands of open connections


@pytest.mark.skipif(not (shutil.which("nginx") or Path("/usr/sbin/nginx").exists()), reason="needs nginx")
def test_nginx_site_is_valid(tmp_path):
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    conf = tmp_path / "nginx.conf"
    # `nginx -t` binds nothing, so any port will do
    site = (DEPLOY / "nginx-mapsmith.conf").read_text().replace("listen 80;", "listen 127.0.0.1:18099;")
    conf.write_text(f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
                    f"http {{\naccess_log off;\nclient_body_temp_path {tmp_path}/body;\n"
                    f"proxy_temp_path {tmp_path}/proxy;\n{site}\n}}\n")
    result = subprocess.run([nginx, "-t", "-c", str(conf), "-p", str(tmp_path), "-e", str(tmp_path / "error.log")],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
