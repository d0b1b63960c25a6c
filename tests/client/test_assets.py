"""The window's assets and remembered settings: the shipped font draws the suits, card
images are cached per size, the sounds are the generator's output, settings survive."""

from __future__ import annotations

import importlib.util
import json
import wave
from pathlib import Path

import pygame
import pytest

from client.settings import Settings
from client.ui.assets import ASSETS_DIR, Assets
from client.ui.cardart import card_size, pad
from engine import Card, Rules, RulesError


@pytest.fixture(scope="module")
def assets(headless: None) -> Assets:
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((64, 64))
    return Assets(sound=False)


@pytest.mark.parametrize("symbol", list("♠♥♦♣"))
def test_the_shipped_font_draws_the_suits(assets: Assets, symbol: str) -> None:
    font = assets.font(40)
    missing = font.metrics("\U000f0000")[0]  # a code point no font has: the "no glyph" box
    assert font.metrics(symbol)[0] != missing
    assert font.render(symbol, True, (0, 0, 0)).get_bounding_rect().w > 10


def test_the_font_licence_ships_with_it() -> None:
    assert "Bitstream" in (ASSETS_DIR / "fonts" / "LICENSE-DejaVu.txt").read_text()


def test_card_images_are_cached_per_size_and_carry_their_shadow(assets: Assets) -> None:
    ace = Card.parse("As")
    image = assets.card(ace, 120)
    w, h = card_size(120)
    assert image.get_size() == (w + 2 * pad(120), h + 2 * pad(120))
    assert assets.card(ace, 120) is image
    assert assets.card(ace, 121) is not image
    assert image.get_at((image.get_width() // 2, image.get_height() // 2)).a == 255
    assert image.get_at((0, 0)).a == 0  # the margin is transparent at the corner


def test_faces_differ_and_backs_are_shared(assets: Assets) -> None:
    six, seven = assets.card(Card.parse("6h"), 90), assets.card(Card.parse("7h"), 90)
    assert pygame.image.tobytes(six, "RGBA") != pygame.image.tobytes(seven, "RGBA")
    assert assets.card(None, 90) is assets.card(None, 90)


def test_turned_and_tinted_looks(assets: Assets) -> None:
    card = Card.parse("Qd")
    upright, turned = assets.card(card, 100), assets.card(card, 100, angle=90)
    assert turned.get_width() == pytest.approx(upright.get_height(), abs=2)
    dim, plain = assets.card(card, 100, "dim"), assets.card(card, 100)
    centre = (plain.get_width() // 2, plain.get_height() // 2 + 30)
    assert sum(dim.get_at(centre)[:3]) < sum(plain.get_at(centre)[:3])


def test_the_felt_fills_the_window(assets: Assets) -> None:
    felt = assets.felt((320, 200))
    assert felt.get_size() == (320, 200)
    centre, corner = felt.get_at((160, 90)), felt.get_at((0, 0))
    assert centre.g > corner.g  # lighter in the middle: the vignette


def test_the_sounds_are_what_the_generator_writes(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location(
        "make_sounds", ASSETS_DIR / "sounds" / "make_sounds.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(tmp_path)
    for made in sorted(tmp_path.glob("*.wav")):
        shipped = ASSETS_DIR / "sounds" / made.name
        assert shipped.read_bytes() == made.read_bytes()
        with wave.open(str(shipped)) as wav:
            seconds = wav.getnframes() / wav.getframerate()
            longest = 2.0 if made.stem.startswith("sting") else 1.0  # the end's moment
            assert wav.getnchannels() == 1 and 0.05 < seconds < longest
    assert {p.name for p in tmp_path.glob("*.wav")} == {
        "deal.wav",
        "play.wav",
        "beat.wav",
        "take.wav",
        "turn.wav",
        "sting.wav",
        "sting_you.wav",
        "cheer.wav",
    }


# --- settings -------------------------------------------------------------------------------


def test_settings_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "settings.json"
    settings = Settings(opponents=4, animation="fast", hints=False, muted=True)
    settings.levels[2] = "hard"
    settings.rules = dict(settings.rules, transfer=True, deck_size=52)
    settings.save(path)
    again = Settings.load(path)
    assert again == settings
    assert again.game_rules() == Rules(players=5, transfer=True, deck_size=52)


def test_missing_or_broken_settings_give_the_defaults(tmp_path: Path) -> None:
    assert Settings.load(tmp_path / "none.json") == Settings()
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    assert Settings.load(broken) == Settings()
    odd = tmp_path / "odd.json"
    odd.write_text(
        json.dumps(
            {"opponents": "three", "hints": 0, "animation": "warp", "rules": {"bogus": 1}, "x": 1}
        )
    )
    assert Settings.load(odd) == Settings()


def test_rules_that_cannot_be_dealt_are_refused() -> None:
    settings = Settings(opponents=5)
    settings.rules = dict(settings.rules, deck_size=24)
    with pytest.raises(RulesError):
        settings.game_rules()


def test_show_trump_is_kept_but_off_without_transfer() -> None:
    settings = Settings()
    settings.rules = dict(settings.rules, transfer=False, transfer_show_trump=True)
    assert settings.game_rules().transfer_show_trump is False


def test_a_remembered_sub_option_survives_loading(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    settings = Settings()
    settings.rules = dict(settings.rules, transfer=False, transfer_show_trump=True, deck_size=52)
    settings.save(path)
    assert Settings.load(path).rules == settings.rules


@pytest.mark.slow
def test_the_music_is_what_its_script_writes_and_loops_without_a_seam(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location(
        "make_music", ASSETS_DIR / "music" / "make_music.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    samples = module.compose()
    module.write(tmp_path / "lounge.wav", samples)
    shipped = ASSETS_DIR / "music" / "lounge.wav"
    assert shipped.read_bytes() == (tmp_path / "lounge.wav").read_bytes()
    with wave.open(str(shipped)) as wav:
        assert wav.getnchannels() == 1 and 10 < wav.getnframes() / wav.getframerate() < 30
    assert max(abs(s) for s in samples) <= 0.5  # quiet beside the cards' sounds
    # the end runs on into the start: no jump where the loop goes round
    assert abs(samples[-1] - samples[0]) < 0.02


def test_the_music_plays_at_its_level_and_stops_at_0(headless: None) -> None:
    assets = Assets(sound=True)
    if not assets.sound_ok:  # (no audio device at all, not even SDL's dummy one)
        pytest.skip("no mixer")
    try:
        assets.set_sound(0.8, 0.4)
        assert pygame.mixer.music.get_busy() and abs(pygame.mixer.music.get_volume() - 0.4) < 0.01
        assets.set_sound(0.8, 0.2)  # the slider moved: the same loop, quieter
        assert abs(pygame.mixer.music.get_volume() - 0.2) < 0.01 and assets.music == 0.2
        assets.set_sound(0.5, 0.0)
        assert assets.music == 0.0 and assets.volume == 0.5
    finally:
        pygame.mixer.music.stop()
