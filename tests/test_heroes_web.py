"""Cartographers Heroes in the table app (Flask test client): setup with deck, side, mixing note and skills;
hero cards, the hero form, pending Gorgon/Troll choices, spent coins, printing, both languages."""

from __future__ import annotations

from companion.cartographers.data import HERO_PREFIX
from companion.cartographers.session import Game, Setup
from tests.conftest import csrf_token
from tests.test_web_routes import act, stored


def new_heroes_game(client, players=("Ann", "Bob"), seed=4, side="C", **extra):
    token = csrf_token(client)
    r = client.post("/c/new", data={"csrf_token": token, "player": list(players), "side": side, "deck": "heroes",
                                    "scoring_mode": "random", "seed": str(seed), **extra})
    assert r.status_code == 303, r.get_data(as_text=True)
    return r.location.rsplit("/", 1)[1], token


def test_setup_screen_offers_sets_sides_and_says_combining_is_unknown(client):
    for lang, words in (("en", ("Cartographers Heroes", "C ·", "D ·", "not known to us", "Skill 1", "Faunlost")),
                        ("tr", ("Kahramanlar", "C ·", "D ·", "elimizde yok", "Beceri 1", "bizim çevirimiz"))):
        client.get(f"/lang/{lang}")
        html = client.get("/c/new").get_data(as_text=True)
        for w in words:
            assert w in html, (lang, w)


def test_heroes_table_plays_heroes_and_stores_its_setup(app, client):
    code, token = new_heroes_game(client, skill=["Fast Legs", ""])
    setup = stored(app, code).setup
    assert setup["deck"] == "heroes" and setup["side"] == "C" and setup["skills"] == ["Fast Legs"]
    game = Game.replay(Setup.from_dict(setup), [])
    version = 0
    # reveal until a hero comes up; the table page shows the hero card with its hit pattern
    while True:
        r = act(client, code, token, "reveal", version)
        assert r.status_code == 200, r.get_data(as_text=True)
        version += 1
        game = game.apply({"type": "reveal"})
        if game.turns[-1]["cards"][-1].startswith(HERO_PREFIX):
            break
        if game.phase == "season_end":
            assert act(client, code, token, "next_season", version).status_code == 200
            version += 1
            game = game.apply({"type": "next_season"})
    html = client.get(f"/t/{code}").get_data(as_text=True)
    assert "hero-card" in html and "Hero" in html
    page = client.get(f"/t/{code}/player/0").get_data(as_text=True)
    assert 'id="hero-form"' in page and "Spend coins on a skill" in page
    r = act(client, code, token, "hero", version, player=0, cell="f6", orientation=1)
    assert r.status_code == 200, r.get_data(as_text=True)
    version += 1
    event = stored(app, code).events[-1]
    assert event["type"] == "hero" and event["cell"] == [5, 5] and event["orientation"] == 1
    assert 'id="hero-form"' not in client.get(f"/t/{code}/player/0").get_data(as_text=True)
    r = act(client, code, token, "hero", version, player=0, cell="Z9")
    assert r.status_code == 400 and "row letter" in r.get_json()["error"]
    r = act(client, code, token, "spend", version, player=1, coins=2, skill="Fast Legs")
    assert r.status_code == 200
    r = act(client, code, token, "spend", version + 1, player=1, coins=1, skill="Nope")
    assert r.status_code == 400
    assert 'id="spent-note"' in client.get(f"/t/{code}/player/1").get_data(as_text=True)
    pdf = client.get(f"/t/{code}/print.pdf?kind=score")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")


def test_gorgon_choice_shows_on_the_table_and_the_map(app, client):
    # find a seed whose first season reveals the Gorgon in a two-player Heroes game
    gorgon = "h04"
    for seed in range(200):
        game = Game.new(Setup(seed=seed, side="D", players=("Ann", "Bob"), deck="heroes"))
        n = 0
        while game.phase == "explore" and gorgon not in game.removed_ambushes:
            game = game.apply({"type": "reveal"})
            n += 1
        if gorgon in game.removed_ambushes:
            break
    code, token = new_heroes_game(client, seed=seed, side="D")
    for v in range(n):
        assert act(client, code, token, "reveal", v).status_code == 200
    html = client.get(f"/t/{code}").get_data(as_text=True)
    assert 'id="pending"' in html and "Gorgon Gaze" in html and "The player who drew the monster chooses." in html
    page = client.get(f"/t/{code}/player/1").get_data(as_text=True)
    assert "destroy-panel" in page
    r = act(client, code, token, "destroy", n, player=1, cell="A1")
    assert r.status_code == 200
    html = client.get(f"/t/{code}").get_data(as_text=True)
    assert "destroyed A1" in html


def test_score_page_scores_a_heroes_map(client):
    from companion.cartographers.board import Board
    token = csrf_token(client)
    grid = Board.blank("C").destroy([(0, 0)]).to_words()
    grid[0][1] = "hero"
    r = client.post("/api/score", json={"side": "C", "grid": grid, "cards": ["starlit_sigil", "silos"], "coins": 0},
                    headers={"X-CSRF-Token": token})
    assert r.status_code == 200, r.get_data(as_text=True)
    assert [e["card"] for e in r.get_json()["edicts"]] == ["starlit_sigil", "silos"]
    html = client.get("/score").get_data(as_text=True)
    assert 'value="C"' in html and 'value="D"' in html and "banded_hills" in html


def test_own_side_defined_played_printed_and_scored_in_the_app(app, client):
    import json

    token = csrf_token(client)
    html = client.get("/sides/new").get_data(as_text=True)
    assert 'id="side-form"' in html
    cells = {"2,2": "mountain", "8,8": "mountain", "1,5": "ruins", "5,5": "wasteland", "0,0": "forest"}
    r = client.post("/sides/new", data={"csrf_token": token, "name": "Our Isle", "cells": json.dumps(cells)})
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    import re
    code = re.search(r'<code id="side-code">([^<]+)</code>', page).group(1)
    assert code.startswith("~Our Isle~")
    assert client.get(f"/sides/new?side={code}").status_code == 200
    new = client.get(f"/c/new?side={code}").get_data(as_text=True)
    assert "Our Isle" in new and f'value="{code}" checked' in new
    r = client.post("/c/new", data={"csrf_token": token, "player": ["Ann"], "side": code, "scoring_mode": "random"})
    assert r.status_code == 303
    table = r.location.rsplit("/", 1)[1]
    assert stored(app, table).setup["side"] == code
    assert client.get(f"/t/{table}/player/0").status_code == 200
    pdf = client.get(f"/t/{table}/print.pdf?kind=map")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
    assert client.get(f"/print/map.pdf?side={code}&copies=1").data.startswith(b"%PDF")
    from companion.cartographers.board import Board
    grid = Board.blank(code).to_words()
    grid[0][1] = "forest"
    r = client.post("/api/score", json={"side": code, "grid": grid, "cards": ["sentinel_wood"], "coins": 0},
                    headers={"X-CSRF-Token": token})
    assert r.status_code == 200 and r.get_json()["edicts"][0]["points"] == 2
    assert "Our Isle" in client.get(f"/score?side={code}").get_data(as_text=True)
    bad = client.post("/sides/new", data={"csrf_token": token, "name": "X", "cells": json.dumps({"1,1": "mountain",
                                                                                                 "1,1 ": "ruins"})})
    assert bad.status_code == 400 and "share a space" in bad.get_data(as_text=True)


def test_a_player_tells_where_an_ambush_monster_is(app, client):
    zombie = "h02"
    for seed in range(300):
        game = Game.new(Setup(seed=seed, side="C", players=("Ann", "Bob"), deck="heroes"))
        n = 0
        while game.phase == "explore" and zombie not in game.removed_ambushes:
            game = game.apply({"type": "reveal"})
            n += 1
        if zombie in game.removed_ambushes:
            break
    code, token = new_heroes_game(client, seed=seed)
    for v in range(n):
        assert act(client, code, token, "reveal", v).status_code == 200
    page = client.get(f"/t/{code}/player/0").get_data(as_text=True)
    assert 'data-ambush="h02"' in page and "Zombie Plague" in page
    from companion.cartographers.board import Board
    from companion.cartographers.terrain import Terrain
    grid = Board.blank("C").draw([(4, 4)], Terrain.MONSTER)
    assert act(client, code, token, "map", n, player=0, grid=grid.to_words()).status_code == 200
    r = act(client, code, token, "monster", n + 1, player=0, ambush=zombie, cells="E5")
    assert r.status_code == 200, r.get_data(as_text=True)
    assert stored(app, code).events[-1] == {"type": "monster", "player": 0, "ambush": zombie, "cells": [[4, 4]]}
    assert 'data-ambush="h02"' not in client.get(f"/t/{code}/player/0").get_data(as_text=True)
