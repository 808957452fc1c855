"""No input gives a 5xx: the issue's six crashing bodies, then hypothesis-generated requests to every route.

The fuzz client is a member of a Cartographers and a Knarr table and sends a valid CSRF token, so
its bodies reach the real validation and game code instead of stopping at the CSRF or join check.
Every route of the app's URL map is covered (new routes are picked up automatically); the run is
bounded (a few hundred examples) to keep CI cost well under two minutes.
"""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import csrf_token
from web.db import get_store

FIELD_NAMES = [
    "action", "version", "player", "seed", "side", "scoring_mode", "edict_A", "edict_B", "edict_C", "edict_D",
    "colour", "first_player", "artifact_variant", "ship_side", "virtual_deck", "grid", "coins", "season", "edicts",
    "edict1", "edict2", "monsters", "cards", "card", "slot", "collect", "to", "vp", "reputation", "recruit",
    "bracelet", "csrf_token", "photo",
]
ACTIONS = ["reveal", "next_season", "undo", "score", "map", "gain", "end_turn", "take_viking", "play_viking",
           "draw_viking", "discard_vikings", "take_destination", "replace_viking", "bogus"]
QUERY_KEYS = ["v", "season", "kind", "paper", "lang", "side", "copies", "players", "next", "code"]

scalars = (st.none() | st.booleans() | st.integers(min_value=-(10**30), max_value=10**30)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=30)
           | st.sampled_from(ACTIONS + ["A", "B", "0", "1", "-1", "chosen", "forest", ""]))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=12)
                           | st.dictionaries(st.sampled_from(FIELD_NAMES) | st.text(max_size=8), inner, max_size=6),
                           max_leaves=60)
json_bodies = st.dictionaries(st.sampled_from(FIELD_NAMES), json_values, max_size=8) | json_values
form_values = st.text(max_size=40) | st.sampled_from(ACTIONS + ["A", "B", "0", "1", "3", "chosen", "[]", "[[]]"])
form_bodies = st.dictionaries(st.sampled_from(FIELD_NAMES), form_values | st.lists(form_values, max_size=5),
                              max_size=8)
small = st.integers(min_value=-2, max_value=12)
action_bodies = st.fixed_dictionaries(
    {"action": st.sampled_from(ACTIONS), "version": st.integers(min_value=0, max_value=40)},
    optional={name: small | json_values for name in ("player", "season", "coins", "edict1", "edict2",
                                                       "monsters", "slot", "card", "vp", "reputation", "recruit",
                                                       "bracelet", "to", "collect", "cards", "edicts", "grid")})
queries = st.dictionaries(st.sampled_from(QUERY_KEYS), st.text(max_size=12) | st.integers().map(str), max_size=4)


@pytest.fixture(scope="module")
def fuzz(tmp_path_factory):
    """An app with one Cartographers and one Knarr table, and a member client with its CSRF token."""
    from web import create_app

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path_factory.mktemp("fuzz") / "db.sqlite3"),
                      "SECRET_KEY": "fuzz", "JOIN_ATTEMPTS": 10**9})
    client = app.test_client()
    token = csrf_token(client)
    carto = client.post("/c/new", data={"csrf_token": token, "player": ["Ann", "Bob"], "seed": "3"})
    knarr = client.post("/k/new", data={"csrf_token": token, "player": ["Ann", "Bob"], "seed": "3",
                                        "virtual_deck": "on"})
    codes = [carto.location.rsplit("/", 1)[1], knarr.location.rsplit("/", 1)[1]]
    with app.app_context():
        secrets = [get_store().access(c).secret for c in codes]
    rules = [(rule.rule, sorted(rule.methods - {"HEAD", "OPTIONS"}), rule.arguments)
             for rule in app.url_map.iter_rules() if rule.endpoint != "static"]
    return app, client, token, codes, secrets, rules


def fill(rule: str, arguments, data, codes, secrets) -> str:
    path = rule
    for name in arguments:
        if name == "code":
            value = data.draw(st.sampled_from(codes * 6 + ["ZZZZZZZ", "k7m4qxa", "x"]))
        elif name == "secret":
            value = data.draw(st.sampled_from(secrets) | st.text("abcXYZ-_09", min_size=1, max_size=40))
        elif name == "seat":
            value = str(data.draw(st.integers(min_value=0, max_value=10**6)))
        else:
            value = data.draw(st.sampled_from(["map", "score", "knarr", "tr", "en", "xx"]) | st.text("abc", max_size=5))
        path = path.replace(f"<int:{name}>", value).replace(f"<{name}>", value)
    return path


def test_the_reported_crashes_are_400s(fuzz):
    app, client, token, codes, _secrets, _rules = fuzz
    headers = {"X-CSRF-Token": token, "Accept": "application/json"}
    deep = "[" * 100_000 + "]" * 100_000
    r = client.post(f"/t/{codes[0]}/action", data=deep, content_type="application/json", headers=headers)
    assert r.status_code == 400 and r.get_json()["code"] == "bad_json"
    deep_object = '{"a":' * 40_000 + "1" + "}" * 40_000  # 200 kB: under the size cap, over the depth cap
    r = client.post(f"/t/{codes[0]}/action", data=deep_object, content_type="application/json", headers=headers)
    assert r.status_code == 400
    # a grid posted as a form field holding deep JSON goes through the same parser
    r = client.post(f"/t/{codes[0]}/action", data={"action": "map", "player": "0", "grid": "[" * 20_000 + "]" * 20_000,
                                                       "csrf_token": token},
                    headers={"Accept": "application/json"})
    assert r.status_code == 400
    for url, body in (("/c/new", {"player": 5}), ("/c/new", {"player": ["Ann"], "seed": 5}),
                      ("/c/new", {"player": ["Ann"], "seed": 1e300}), ("/k/new", {"player": 5}),
                      ("/k/new", {"player": ["Ann", "Bob"], "colour": 5}), ("/k/new", {"player": [{}], "seed": []})):
        r = client.post(url, json=body, headers=headers)
        assert r.status_code in (303, 400), (url, body, r.status_code)
    r = client.post("/c/new", json={"player": ["Ann"], "seed": 5}, headers=headers)
    assert r.status_code == 303  # a number where the form has text is fine
    r = client.post("/k/new", json={"player": ["Ann", {"x": 1}]}, headers={**headers, "Accept-Language": "tr"})
    assert r.status_code == 400 and r.get_json()["field"] == "player" and "geçerli değil" in r.get_json()["error"]
    r = client.post(f"/t/{codes[1]}/action", data='{"action": "gain", "player": 0, "vp": Infinity}',
                    content_type="application/json", headers=headers)
    assert r.status_code == 400
    r = client.post(f"/t/{codes[0]}/action", data=json.dumps({"action": "x" * 10_000}),
                    content_type="application/json", headers=headers)
    assert r.status_code == 400


@settings(max_examples=800, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(data=st.data())
def test_no_route_answers_5xx(fuzz, data):
    app, client, token, codes, secrets, rules = fuzz
    posts = [r for r in rules if "POST" in r[1]]
    rule, methods, arguments = data.draw(st.sampled_from(rules) | st.sampled_from(posts))
    method = data.draw(st.sampled_from(methods))
    path = fill(rule, arguments, data, codes, secrets)
    query = data.draw(queries)
    headers = {"X-CSRF-Token": token, "Accept": data.draw(st.sampled_from(["application/json", "text/html"])),
               "Accept-Language": data.draw(st.sampled_from(["tr", "en"]))}
    kwargs: dict = {"query_string": query, "headers": headers}
    if method == "POST":
        style = data.draw(st.sampled_from(["json", "form", "raw", "photo"]))
        if path.endswith("/action") and data.draw(st.integers(0, 9)) < 7:
            body = data.draw(action_bodies)  # mostly well-formed actions on the current version: game code runs
            code = path.split("/")[2]
            if code in codes and data.draw(st.integers(0, 9)) < 8:
                with app.app_context():
                    body["version"] = get_store().version(code)
            kwargs["json"] = body
        elif style == "json":
            kwargs["json"] = data.draw(json_bodies)
        elif style == "form":
            kwargs["data"] = data.draw(form_bodies)
        elif style == "raw":
            kwargs["data"] = data.draw(st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
            kwargs["content_type"] = data.draw(st.sampled_from(["application/json", "text/plain",
                                                                "application/x-www-form-urlencoded"]))
        else:
            body = data.draw(st.binary(max_size=300))
            mimetype = data.draw(st.sampled_from(["image/jpeg", "text/plain"]))
            kwargs["data"] = {**data.draw(form_bodies), "photo": (io.BytesIO(body), "p.jpg", mimetype)}
    response = client.open(path, method=method, **kwargs)
    assert response.status_code < 500, (method, path, kwargs, response.get_data(as_text=True)[:500])
