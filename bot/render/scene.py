"""A picture kept as the list of drawing steps that make it, so that only the rows a step changed are drawn
and compressed again.

A channel board is posted after nearly every step of a game, and from one to the next most of it is the
same: the map, the frame, three seats out of four. Drawing it whole, then reading its 4 MB of pixels back
to find which bands of rows changed, cost more than the rest of a click. A `Scene` is drawn on like an
image (`paste`, `draw_of(scene).rounded_rectangle(...)`, `draw_text(scene, ...)`), but each call is
recorded with a key that says everything its pixels depend on and the rows it may touch. A band of rows is
then exactly determined by the keys of the steps that touch it, in order: a band whose keys were met in an
earlier picture is taken compressed as it was, without drawing or reading a pixel; the others are drawn
(only the steps that touch them), mapped to the palette and compressed.

Images pasted into a scene are known by a serial number when they are kept images (`kit.keep`: text
masks, icons, kept parts, which are never drawn on again), else by their pixels, copied when pasted.
"""

from __future__ import annotations

import itertools
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Any, cast

from PIL import Image, ImageDraw

from bot.render.kit import BAND_ROWS, Box, Color, Draw, _Band, _deflated, _png, _raw, kept_serial

#: the ImageDraw calls a scene records; their first argument is the shape's points or box
_SHAPES = frozenset({"rectangle", "rounded_rectangle", "ellipse", "polygon", "line", "arc", "chord", "pieslice",
                     "point"})
#: ImageDraw calls that only measure (they read no pixels): answered by a drawing on a 1x1 picture
_MEASURES = frozenset({"textbbox", "textlength", "multiline_textbbox"})
_SCRATCH = ImageDraw.Draw(Image.new("RGB", (1, 1)))


#: a big kept image pasted at a place: the place, and what each band of rows it covers shows (see `_Pieces`)
_Rows = tuple[tuple[int, int, int, int], tuple[Hashable, ...]]
#: a recorded step: its key, the rows it may touch [top, bottom), how to draw it moved up by `top`, and for
#: a big kept image its pieces (a band's key then holds only the piece that falls in it)
_Step = tuple[Hashable, int, int, str, tuple[Any, ...], _Rows | None]
#: a kept image taller than this is known band by band (`_Pieces`): a seat's card whose "Turn" tag changed
#: leaves the bands of its other rows as they were
_BY_ROWS = 4 * BAND_ROWS


class Scene:
    """An RGB picture `size` px on `background`, recorded (see the module's docstring)."""

    mode = "RGB"

    def __init__(self, size: tuple[int, int], background: Color) -> None:
        self.size = size
        self.width, self.height = size
        self.background = background
        self.steps: list[_Step] = []

    # ---------------------------------------------------------------------------------------- drawing

    def paste(self, im: Image.Image | Color | int, box: Sequence[int] | None = None,
              mask: Image.Image | None = None) -> None:
        """As `Image.paste`: an image, or a colour through `mask` or over a 4-tuple box."""
        box = (0, 0) if box is None else tuple(int(v) for v in box)
        source: Image.Image | Color | int
        if isinstance(im, Image.Image):
            source, what = _known(im)
            height = source.height
        else:
            source, what = im, im
            height = mask.height if mask is not None else 0
        mask_id: Hashable = None
        if mask is not None:
            mask, mask_id = _known(mask)
        if len(box) == 4:
            top, bottom = box[1], box[3]
        else:
            top, bottom = box[1], box[1] + height
        key = ("paste", what, box, mask_id)
        rows: _Rows | None = None
        if isinstance(source, Image.Image) and len(box) == 2 and source.height > _BY_ROWS and source.mode == "RGB":
            place = (box[0], box[1], source.width, source.height)
            rows = (place, PIECES.of(place, source, mask))
        self.steps.append((key, top, bottom, "paste", (source, box, mask), rows))

    def shape(self, name: str, xy: Any, *args: Any, **kwargs: Any) -> None:
        """An ImageDraw shape call (`name` one of the shapes ImageDraw draws from points or a box)."""
        points = _points(xy)
        ys = [y for _, y in points]
        reach = 2 * int(kwargs.get("width", 1) or 1) + 4  # an outline or a line's width spreads past its points
        top, bottom = int(min(ys)) - reach, int(max(ys)) + reach + 1
        key: Hashable = ("shape", name, tuple(points), args, tuple(sorted(kwargs.items())))
        try:
            hash(key)
        except TypeError:  # a list among the arguments (a colour, corners): as a tuple, it draws the same
            key = ("shape", name, tuple(points), _frozen(args), _frozen(tuple(sorted(kwargs.items()))))
        self.steps.append((key, top, bottom, name, (points, args, kwargs), None))

    def paint(self, box: Box, paint: Callable[[Image.Image, ImageDraw.ImageDraw, Box], None]) -> None:
        """`paint(canvas, draw, box)` drawn in place when the picture is: for the tests that compare kept
        parts with parts drawn where they go. Never taken from kept bands (its key is new each time)."""
        self.steps.append((("paint", object()), box.y, box.bottom, "paint", (box, paint), None))

    def draw(self) -> ImageDraw.ImageDraw:
        """The scene's `ImageDraw`: shape calls are recorded, measuring calls answered; anything else is
        refused (draw it in a kept part)."""
        return cast(ImageDraw.ImageDraw, SceneDraw(self))

    # ---------------------------------------------------------------------------------------- output

    def image(self) -> Image.Image:
        """The picture, every step drawn."""
        canvas = Image.new("RGB", self.size, self.background)
        _replay(canvas, self.steps, range(len(self.steps)), 0)
        return canvas

    def png(self, palette: Image.Image, compress_level: int = 3) -> bytes:
        """The picture as a paletted PNG: what `kit.to_png(self.image(), palette)` gives, pixel for pixel,
        drawing and compressing only the bands of rows whose steps were not met before."""
        width, height = self.size
        count = -(-height // BAND_ROWS)
        touching: list[list[int]] = [[] for _ in range(count)]
        for i, (_, top, bottom, _, _, _) in enumerate(self.steps):
            for band in range(max(0, top // BAND_ROWS), min(count - 1, (bottom - 1) // BAND_ROWS) + 1):
                touching[band].append(i)
        colours = palette.getpalette() or [0, 0, 0]
        base = STEP_IDS.of((width, height, self.background, bytes(colours), compress_level))
        ids = [STEP_IDS.of(step[0]) if step[5] is None else None for step in self.steps]
        keys = [(base, band, tuple(self._piece(i, band) if ids[i] is None else ids[i] for i in touching[band]))
                for band in range(count)]
        bands: list[_Band | None] = [SCENE_BANDS.get(key) for key in keys]
        missing = [band for band in range(count) if bands[band] is None]
        if missing:
            self._draw_bands(missing, touching, palette, compress_level, keys, bands)
        return _png(width, height, colours, [band for band in bands if band is not None])

    def _piece(self, i: int, band: int) -> Hashable:
        """What step `i`, a big kept image known band by band, puts in band `band`."""
        place, pieces = cast(_Rows, self.steps[i][5])
        return ("piece", place, pieces[band - place[1] // BAND_ROWS])

    def _draw_bands(self, missing: list[int], touching: list[list[int]], palette: Image.Image,
                    compress_level: int, keys: Sequence[Hashable], bands: list[_Band | None]) -> None:
        """Draw the runs of missing bands, each on a canvas of its own (a step drawn for one run must not
        spill into the next), map them to the palette and compress them band by band."""
        width, height = self.size
        runs: list[list[int]] = []
        for band in missing:
            if runs and runs[-1][-1] == band - 1:
                runs[-1].append(band)
            else:
                runs.append([band])
        for run in runs:
            top, bottom = run[0] * BAND_ROWS, min(height, (run[-1] + 1) * BAND_ROWS)
            canvas = Image.new("RGB", (width, bottom - top), self.background)
            _replay(canvas, self.steps, sorted({i for band in run for i in touching[band]}), top)
            indices = memoryview(_raw(canvas.quantize(palette=palette, dither=Image.Dither.NONE), "P", 1))
            for band in run:
                start = (band * BAND_ROWS - top) * width
                end = (min(height, (band + 1) * BAND_ROWS) - top) * width
                made = _deflated(indices[start:end], width, compress_level, b"")
                SCENE_BANDS.put(keys[band], made)
                bands[band] = made


class SceneDraw:
    """`ImageDraw.Draw` for a scene: its shape calls are recorded, its measuring calls answered."""

    def __init__(self, scene: Scene) -> None:
        self._scene = scene

    def __getattr__(self, name: str) -> Any:
        if name in _SHAPES:
            def shape(xy: Any, *args: Any, **kwargs: Any) -> None:
                self._scene.shape(name, xy, *args, **kwargs)
            return shape
        if name in _MEASURES:
            return getattr(_SCRATCH, name)
        raise AttributeError(f"a recorded picture does not support ImageDraw.{name}: draw it in a kept part")


def _known(image: Image.Image) -> tuple[Image.Image, Hashable]:
    """The image to paste and what it is known by: a kept image's serial number, else its pixels (copied,
    so that drawing on it after it was pasted does not change the scene)."""
    serial = kept_serial(image)
    if serial is not None:
        return image, serial
    copy = image.copy()
    return copy, ("pixels", copy.mode, copy.size, copy.tobytes())


def _points(xy: Any) -> list[tuple[float, float]]:
    """ImageDraw's ways of giving points ((x0, y0, x1, y1), [(x, y), …], [x, y, …]) as a list of pairs."""
    flat = list(xy)
    if flat and isinstance(flat[0], int | float):
        return [(flat[i], flat[i + 1]) for i in range(0, len(flat) - 1, 2)]
    return [(p[0], p[1]) for p in flat]


def _frozen(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    return value


def _replay(canvas: Image.Image, steps: list[_Step], which: Sequence[int] | range, top: int) -> None:
    draw = Draw(canvas)
    for i in which:
        _, _, _, kind, data, _ = steps[i]
        if kind == "paste":
            source, box, mask = data
            moved = (box[0], box[1] - top) if len(box) == 2 else (box[0], box[1] - top, box[2], box[3] - top)
            canvas.paste(source, moved, mask)
        elif kind == "paint":
            box, paint = data
            paint(canvas, draw, Box(box.x, box.y - top, box.w, box.h))
        else:
            points, args, kwargs = data
            getattr(draw, kind)([(x, y - top) for x, y in points], *args, **kwargs)


class _Pieces:
    """What a big kept image (a seat's card, a neighborhood's tile) shows in each band of rows, by the place
    it is pasted at: a band's piece is a label that stands for those exact pixels. A new image pasted where
    others were is compared with them band by band (its bytes, not a digest of them), and a band whose rows
    equal one of theirs takes that one's label; so a card that changed in one group of rows leaves the other
    bands' keys as they were, and a card that goes back to how it was a few steps ago finds its bands again.
    The last few images at each place are kept (bounded LRU, thread-safe)."""

    def __init__(self, places: int = 512, history: int = 6) -> None:
        self.places = places
        self.history = history
        #: per place, the last images pasted there, newest first (`_Seen`)
        self._seen: OrderedDict[tuple[int, int, int, int], list[_Seen]] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, place: tuple[int, int, int, int], image: Image.Image,
           mask: Image.Image | None) -> tuple[Hashable, ...]:
        """The labels of the bands of rows `image` (through `mask`) covers, pasted at `place`."""
        ident = (kept_serial(image) or 0, None if mask is None else kept_serial(mask))
        with self._lock:
            seen = list(self._seen.get(place, ()))
        for kept in seen:
            if kept[0] == ident:
                return kept[4]
        x, y, width, height = place
        raw = _raw(image, "RGBX", 4)
        # the mask's rows go with the pixels' (a 1-bit mask read a byte a pixel: packing its bits is ten
        # times slower)
        mask_raw = b"" if mask is None else _raw(mask, "L", 1) if mask.mode in ("1", "L") else mask.tobytes()
        stride, mask_stride = 4 * width, len(mask_raw) // height
        first = y // BAND_ROWS
        samples: list[bytes] = []
        labels: list[Hashable] = []
        for band in range(first, (y + height - 1) // BAND_ROWS + 1):
            k = band - first
            top, bottom = max(0, band * BAND_ROWS - y), min(height, (band + 1) * BAND_ROWS - y)
            a, b, c, d = top * stride, bottom * stride, top * mask_stride, bottom * mask_stride
            # most bands that differ do so in a sample of every 61st byte: compared first, it spares copying
            # and reading a band that is not the older one's
            sample = raw[a:b:_SAMPLE] + mask_raw[c:d]
            label: Hashable = (ident, band)
            for kept in seen:
                if kept[3][k] == sample and kept[1].startswith(raw[a:b], a) and kept[2].startswith(mask_raw[c:d], c):
                    label = kept[4][k]
                    break
            samples.append(sample)
            labels.append(label)
        pieces = tuple(labels)
        with self._lock:
            history = [(ident, raw, mask_raw, samples, pieces), *self._seen.get(place, ())][:self.history]
            self._seen[place] = history
            self._seen.move_to_end(place)
            while len(self._seen) > self.places:
                self._seen.popitem(last=False)
        return pieces

    def clear(self) -> None:
        with self._lock:
            self._seen.clear()


#: an image seen at a place: its identity (serials of it and its mask), its pixels, its mask's, a sample of
#: each band's (pixels and mask), the bands' labels
_Seen = tuple[tuple[int, int | None], bytes, bytes, list[bytes], tuple[Hashable, ...]]
#: a band's sample: every this-many-th byte (odd, so it falls on every channel of the pixels)
_SAMPLE = 61


#: the last big kept image at each place, with its bands' labels
PIECES = _Pieces()


class _SceneBands:
    """Compressed bands by their steps' keys (bounded LRU, thread-safe: renders run in worker threads)."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self._bands: OrderedDict[Hashable, _Band] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> _Band | None:
        with self._lock:
            band = self._bands.get(key)
            if band is not None:
                self._bands.move_to_end(key)
            return band

    def put(self, key: Hashable, band: _Band) -> None:
        with self._lock:
            if key in self._bands:
                return
            self._bands[key] = band
            self._held += _cost(key, band)
            while self._held > self.budget and len(self._bands) > 1:
                old_key, old = self._bands.popitem(last=False)
                self._held -= _cost(old_key, old)

    def __len__(self) -> int:
        with self._lock:
            return len(self._bands)

    def clear(self) -> None:
        with self._lock:
            self._bands.clear()
            self._held = 0


def _cost(key: Hashable, band: _Band) -> int:
    """Roughly the bytes a kept band holds: its compressed rows and its key (a few dozen bytes a step)."""
    steps = key[2] if isinstance(key, tuple) and len(key) == 3 else ()
    return len(band.deflated) + 200 + 64 * len(steps)


class _StepIds:
    """A number for each step's key, the same for equal keys: a band's key then holds numbers, hashed in a
    few nanoseconds, instead of its steps' keys, which would be hashed again for every band a step touches
    (a panel touches dozens). Numbers are never reused, so forgetting the table when it grows past `limit`
    costs only bands drawn again, never a wrong one."""

    def __init__(self, limit: int = 200_000) -> None:
        self.limit = limit
        self._ids: dict[Hashable, int] = {}
        self._next = itertools.count()

    def of(self, key: Hashable) -> int:
        found = self._ids.get(key)
        if found is None:
            if len(self._ids) >= self.limit:
                self._ids.clear()
            # setdefault: two threads meeting a new key at once agree on one number
            found = self._ids.setdefault(key, next(self._next))
        return found


#: the numbers of every scene's steps (and of pictures' sizes, backgrounds and palettes)
STEP_IDS = _StepIds()

#: kept bands of every renderer's scenes (a band's key starts with the number of the picture's size, background
#: and palette)
SCENE_BANDS = _SceneBands(32 * 1024 * 1024)
