"""The one cached loader for fonts, text, card images, the felt and sounds.

Create it after the display mode is set (images are converted for the display). Card
images are cached per (card, pixel height, look) and their rotations per whole degree,
with a bound on the number kept, so a resize or a long game never grows memory for ever.
"""

from __future__ import annotations

import io
import os
import random
import sys
import tempfile
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib.resources import files
from pathlib import Path
from typing import Any

import pygame

from engine import Card

from . import cardart

__all__ = ["ASSETS_DIR", "Assets", "native_stderr_captured"]


def _assets_dir() -> Path:
    """The installed ``lan_durak_assets`` package (the repo's ``assets/``, see pyproject.toml)."""
    try:
        root = files("lan_durak_assets")
    except ModuleNotFoundError as error:  # a checkout run without `pip install -e .`
        raise ImportError("the game's fonts and sounds are not installed (see README)") from error
    if not isinstance(root, Path):  # pygame opens fonts by file name: a zipped install won't do
        raise ImportError(f"the game's assets are not files on disk: {root}")
    return root


ASSETS_DIR = _assets_dir()
MUSIC = "lounge.wav"  # the calm loop behind the game (assets/music/make_music.py)


@contextmanager
def native_stderr_captured() -> Iterator[io.BytesIO]:
    """What C libraries write to the process's stderr (SDL, ALSA: "ALSA lib confmisc.c ...
    cannot find card '0'" when there is no sound card) goes into the yielded buffer
    instead of the terminal, until the block ends. For the short calls that start SDL's
    display and audio: it hides every thread's stderr meanwhile."""
    captured = io.BytesIO()
    if sys.stderr is not None:  # None under pythonw and in a windowed app on Windows
        sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no stderr at all (e.g. pythonw on Windows): nothing reaches a terminal
        yield captured
        return
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield captured
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            captured.write(sink.read())


FELT_CENTRE = (40, 112, 66)
FELT_EDGE = (10, 44, 26)
# the looks of a card image: its halo colour (None: a drop shadow) and a tint multiplier
LOOKS: dict[str, tuple[tuple[int, int, int] | None, tuple[int, int, int] | None]] = {
    "plain": (None, None),
    "dim": (None, (172, 172, 168)),
    "glow": ((255, 214, 92), None),
    "target": ((120, 200, 255), None),
    "selected": ((255, 150, 60), None),
}


class _Lru(OrderedDict[Any, Any]):
    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def get_or(self, key: Any, make: Any) -> Any:
        value = self.get(key)
        if value is None:
            value = self[key] = make()
            if len(self) > self.limit:
                self.popitem(last=False)
        else:
            self.move_to_end(key)
        return value


def _weave(tile: int = 128) -> pygame.Surface:
    """A faint grey noise tile: the texture of the cloth."""
    grey = random.Random(7).randbytes(tile * tile)
    rgb = bytearray(3 * len(grey))
    rgb[0::3] = rgb[1::3] = rgb[2::3] = grey
    noise = pygame.image.frombuffer(bytes(rgb), (tile, tile), "RGB").convert()
    noise.set_alpha(9)
    return noise


class Assets:
    def __init__(self, root: Path = ASSETS_DIR, sound: bool = True) -> None:
        self.root = root
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self._texts = _Lru(600)
        self._cards = _Lru(400)
        self._turned = _Lru(900)
        self._composites = _Lru(300)
        self._felt: tuple[tuple[int, int], pygame.Surface] | None = None
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        self.sound_ok = sound and self._init_mixer()
        self.volume = 1.0  # every sound's loudness (the settings' volume), 0-1
        self.music = 0.0  # the music's loudness now (0: it does not play)

    # --- fonts and text -----------------------------------------------------------------

    def font(self, px: int, bold: bool = False) -> pygame.font.Font:
        key = (max(6, int(px)), bold)
        font = self._fonts.get(key)
        if font is None:
            name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
            font = self._fonts[key] = pygame.font.Font(self.root / "fonts" / name, key[0])
        return font

    def text(
        self,
        text: str,
        px: int,
        colour: tuple[int, int, int] = (255, 255, 255),
        bold: bool = False,
        shadow: bool = False,
    ) -> pygame.Surface:
        key = (text, int(px), colour, bold, shadow)

        def make() -> pygame.Surface:
            image = self.font(px, bold).render(text, True, colour)
            if not shadow:
                return image
            out = pygame.Surface((image.get_width() + 2, image.get_height() + 2), pygame.SRCALPHA)
            dark = self.font(px, bold).render(text, True, (0, 0, 0))
            dark.set_alpha(140)
            out.blit(dark, (2, 2))
            out.blit(image, (0, 0))
            return out

        result: pygame.Surface = self._texts.get_or(key, make)
        return result

    # --- cards --------------------------------------------------------------------------

    def card(
        self, card: Card | None, height: int, look: str = "plain", angle: int = 0
    ) -> pygame.Surface:
        """``card`` (None: its back) ``height`` pixels tall with its shadow, turned ``angle``°."""
        height = max(10, int(height))
        angle = int(angle) % 360
        if angle == 0:
            return self._upright(card, height, look)
        key = (card, height, look, angle)
        image: pygame.Surface = self._turned.get_or(
            key, lambda: pygame.transform.rotozoom(self._upright(card, height, look), angle, 1.0)
        )
        return image

    def made(self, card: Card | None, height: int, look: str = "plain", angle: int = 0) -> bool:
        """Whether ``card(card, height, look, angle)`` has its image made already."""
        height, angle = max(10, int(height)), int(angle) % 360
        if angle == 0:
            return (card, height, look) in self._cards
        return (card, height, look, angle) in self._turned

    def _upright(self, card: Card | None, height: int, look: str) -> pygame.Surface:
        def make() -> pygame.Surface:
            halo, tint = LOOKS[look]
            if card is None:
                art = self._cards.get_or(("back", height), lambda: cardart.draw_back(height))
            else:
                art = self._cards.get_or(
                    ("face", card, height), lambda: cardart.draw_face(card, height, self.font)
                )
            if tint is not None:
                art = art.copy()
                art.fill(tint, special_flags=pygame.BLEND_RGB_MULT)
            behind = self._cards.get_or(
                ("halo", height, halo), lambda: cardart.halo(art.get_size(), height, halo)
            )
            return cardart.with_halo(art, height, behind).convert_alpha()

        image: pygame.Surface = self._cards.get_or((card, height, look), make)
        return image

    def composite(self, key: Any, make: Callable[[], Any]) -> Any:
        """Something drawn from other images (a fan of backs, a pile, a box), made once."""
        return self._composites.get_or(key, make)

    def box(
        self,
        size: tuple[int, int],
        fill: tuple[int, ...],
        radius: int,
        border: tuple[int, ...] | None = None,
    ) -> pygame.Surface:
        """A translucent rounded rectangle (plates, buttons, panels)."""

        def make() -> pygame.Surface:
            box = pygame.Surface(size, pygame.SRCALPHA)
            pygame.draw.rect(box, fill, box.get_rect(), border_radius=radius)
            if border is not None:
                width = max(1, radius // 5)
                pygame.draw.rect(box, border, box.get_rect(), width=width, border_radius=radius)
            return box

        image: pygame.Surface = self.composite(("box", size, fill, radius, border), make)
        return image

    # --- the table ------------------------------------------------------------------------

    def felt(self, size: tuple[int, int]) -> pygame.Surface:
        """Green baize with a soft vignette and a faint weave, the size of the window."""
        if self._felt is not None and self._felt[0] == size:
            return self._felt[1]
        w, h = max(1, size[0]), max(1, size[1])
        gw, gh = (96, max(8, round(96 * h / w))) if w >= h else (max(8, round(96 * w / h)), 96)
        (r0, g0, b0), (r1, g1, b1) = FELT_CENTRE, FELT_EDGE
        pixels = bytearray()
        for y in range(gh):
            dy = (y + 0.5) / gh * 2 - 1.15
            for x in range(gw):
                dx = (x + 0.5) / gw * 2 - 1
                t = min(1.0, (dx * dx + dy * dy * 0.9) ** 0.5 / 1.35)
                t = t * t * (3 - 2 * t)
                pixels += bytes(
                    (
                        round(r0 + (r1 - r0) * t),
                        round(g0 + (g1 - g0) * t),
                        round(b0 + (b1 - b0) * t),
                    )
                )
        grad = pygame.image.frombuffer(bytes(pixels), (gw, gh), "RGB")
        felt = pygame.transform.smoothscale(grad, (w, h)).convert()
        noise = self.composite("weave", _weave)
        tile = noise.get_width()
        for y in range(0, h, tile):
            for x in range(0, w, tile):
                felt.blit(noise, (x, y))
        self._felt = (size, felt)
        return felt

    # --- sound --------------------------------------------------------------------------

    def _init_mixer(self) -> bool:
        """Sound on if there is a device; without one the game plays silently, and what the
        audio libraries say about the missing device stays off the terminal."""
        try:
            if not pygame.mixer.get_init():
                with native_stderr_captured():
                    pygame.mixer.init(frequency=22050, size=-16, channels=2, buffer=512)
            return True
        except pygame.error:
            return False

    def play(self, name: str, volume: float = 1.0) -> None:
        if not self.sound_ok:
            return
        sound = self._sounds.get(name)
        if sound is None:
            try:
                sound = self._sounds[name] = pygame.mixer.Sound(
                    self.root / "sounds" / f"{name}.wav"
                )
            except (pygame.error, FileNotFoundError):
                return
        sound.set_volume(volume * self.volume)
        sound.play()

    def set_sound(self, volume: float, music: float) -> None:
        """The loudness of every sound (0-1) and of the music: a quiet loop the window
        plays throughout while ``music`` is above 0 (``assets/music``)."""
        self.volume = volume
        if not self.sound_ok or music == self.music:
            return
        try:
            if music <= 0:
                pygame.mixer.music.fadeout(400)
            elif self.music <= 0:
                pygame.mixer.music.load(self.root / "music" / MUSIC)
                pygame.mixer.music.set_volume(music)
                pygame.mixer.music.play(loops=-1, fade_ms=1500)
            else:
                pygame.mixer.music.set_volume(music)
        except (pygame.error, FileNotFoundError):
            music = 0.0  # no music then; the sounds go on
        self.music = music
