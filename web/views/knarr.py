"""Knarr screens."""

from __future__ import annotations

from flask import Blueprint, render_template

bp = Blueprint("knarr", __name__, url_prefix="/k")


@bp.get("/new")
def new() -> str:
    return render_template("knarr/new.html", available=False)
