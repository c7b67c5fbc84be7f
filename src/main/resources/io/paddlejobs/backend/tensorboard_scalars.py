# paddle-jobs runs a trainer's entry point under this when its job sets PADDLE_JOB_TENSORBOARD_DIR: it
# turns the scalars of the TensorBoard and VisualDL event files the program writes there into
# PADDLEJOBS_METRICS lines on the trainer's own output, which the service reads on every backend
# (docs/metrics.md). Python 3 standard library only, so that it runs in any training environment.
# Usage: python3 -I -c <this file> <entry point>
import json
import math
import os
import re
import signal
import struct
import subprocess
import sys

MARKER = "PADDLEJOBS_METRICS "
POLL_SECONDS = 1.0
LARGEST_RECORD = 64 << 20     # a longer record is no record: the file is read no further
LONGEST_LINE = 3000           # below the pipe's atomic write, so a line is never split by the program's
NOT_METRICS = ("step", "total_steps")
LONGEST_NAME = 64
TENSOR_TYPES = {1: "<f", 2: "<d", 3: "<i", 9: "<q"}  # TensorFlow's DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64


def crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 & -(crc & 1))
    return crc ^ 0xFFFFFFFF


def masked_crc32c(data):
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def varint(buf, pos):
    result = shift = 0
    while True:
        if pos >= len(buf) or shift > 63:
            raise ValueError("bad varint")
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7


def signed(value):
    return value - (1 << 64) if value >= 1 << 63 else value


def fields(buf):
    """(number, wire type, value) of each field of one protocol buffer message."""
    pos = 0
    while pos < len(buf):
        key, pos = varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = varint(buf, pos)
        elif wire in (1, 5):
            size = 8 if wire == 1 else 4
            value, pos = buf[pos:pos + size], pos + size
        elif wire == 2:
            size, pos = varint(buf, pos)
            value, pos = buf[pos:pos + size], pos + size
        else:
            raise ValueError("wire type %d" % wire)
        if pos > len(buf):
            raise ValueError("truncated field")
        yield number, wire, value


def metric_name(tag):
    """A tag as the service names metrics ([A-Za-z_][A-Za-z0-9_.]*, 64 at most): train/loss is train.loss."""
    name = re.sub(r"[^A-Za-z0-9_.]", "_", tag.replace("/", "."))
    if not re.match(r"[A-Za-z_]", name):
        name = "_" + name
    return name[:LONGEST_NAME]


def text(value):
    return value.decode("utf-8", "replace")


def f32(value):
    """A float32 as its shortest decimal: 0.35, not 0.3499999940395355."""
    number = struct.unpack("<f", value)[0]
    for digits in range(6, 10):
        short = float("%.*g" % (digits, number))
        if struct.pack("<f", short) == value:
            return short
    return number


def plugin_name(metadata):
    for number, wire, value in fields(metadata):
        if number == 1 and wire == 2:
            for inner, inner_wire, name in fields(value):
                if inner == 1 and inner_wire == 2:
                    return text(name)
    return ""


def tensor_scalar(tensor):
    """The one number of a numeric tensor with one element (TensorFlow 2's and new-style scalars), else None."""
    dtype, elements, content, listed = 0, 1, None, []
    for number, wire, value in fields(tensor):
        if number == 1 and wire == 0:
            dtype = value
        elif number == 2 and wire == 2:
            for dim, dim_wire, size in fields(value):
                if dim == 2 and dim_wire == 2:
                    elements *= dict((n, v) for n, w, v in fields(size) if w == 0).get(1, 0)
        elif number == 4 and wire == 2:
            content = value
        elif number in (5, 6) and wire == 2:
            width = 4 if number == 5 else 8
            listed += [value[i:i + width] for i in range(0, len(value) - width + 1, width)]
        elif number in (5, 6) and wire in (1, 5):
            listed.append(value)
        elif number in (7, 10) and wire == 2:
            pos = 0
            while pos < len(value):
                item, pos = varint(value, pos)
                listed.append(item)
        elif number in (7, 10) and wire == 0:
            listed.append(value)
    form = TENSOR_TYPES.get(dtype)
    if form is None or elements != 1:
        return None
    if content is not None and len(content) == struct.calcsize(form):
        return f32(content) if form == "<f" else struct.unpack(form, content)[0]
    if len(listed) != 1:
        return None
    item = listed[0]
    if isinstance(item, int):
        return signed(item) if form == "<q" else struct.unpack("<i", struct.pack("<I", item & 0xFFFFFFFF))[0]
    return f32(item) if len(item) == 4 else struct.unpack("<d", item)[0]


def tensorboard_event(data, plugins):
    """An Event's step and the scalars of its Summary; a tag's plugin comes with its first value only."""
    step, scalars = 0, []
    for number, wire, value in fields(data):
        if number == 2 and wire == 0:
            step = signed(value)
        elif number == 5 and wire == 2:
            for item, item_wire, summary_value in fields(value):
                if item != 1 or item_wire != 2:
                    continue
                tag, number_value, tensor = None, None, None
                for field, field_wire, content in fields(summary_value):
                    if field == 1 and field_wire == 2:
                        tag = text(content)
                    elif field == 2 and field_wire == 5:
                        number_value = f32(content)
                    elif field == 8 and field_wire == 2:
                        tensor = content
                    elif field == 9 and field_wire == 2:
                        plugins[tag] = plugin_name(content)
                if tag is None:
                    continue
                if number_value is None and tensor is not None and plugins.get(tag, "scalars") == "scalars":
                    number_value = tensor_scalar(tensor)
                if number_value is not None:
                    scalars.append((tag, number_value))
    return step, scalars


def visualdl_record(data, plugins):
    """A VisualDL Record's values: add_scalar's (tag, value) and add_scalars' (tag/sub tag, value)."""
    step, scalars = 0, []
    for number, wire, value in fields(data):
        if number != 1 or wire != 2:
            continue
        tag, number_value, sub_tag = None, None, None
        for field, field_wire, content in fields(value):
            if field == 1 and field_wire == 0:
                step = signed(content)
            elif field == 2 and field_wire == 2:
                tag = text(content)
            elif field == 4 and field_wire == 5:
                number_value = f32(content)
            elif field == 14 and field_wire == 2:
                for inner, inner_wire, part in fields(content):
                    if inner == 1 and inner_wire == 2:
                        sub_tag = text(part)
                    elif inner == 2 and inner_wire == 5:
                        number_value = f32(part)
        if tag is not None and number_value is not None:
            scalars.append((tag if sub_tag is None else tag + "/" + sub_tag, number_value))
    return step, scalars


class EventFile(object):
    """One event file, read from where the last look stopped; a record not yet whole waits for the next."""

    def __init__(self, path, prefix, offset):
        name = os.path.basename(path)
        self.path, self.prefix, self.offset = path, prefix, offset
        self.tensorboard = "tfevents" in name
        self.plugins = {}
        self.broken = False

    def records(self):
        header, footer = (12, 4) if self.tensorboard else (8, 0)
        with open(self.path, "rb") as file:
            written = os.fstat(file.fileno()).st_size
            if written < self.offset:
                self.offset = 0  # written anew
            file.seek(self.offset)
            while written - self.offset >= header:
                head = file.read(header)
                size = struct.unpack("<Q", head[:8])[0]
                if size > LARGEST_RECORD or self.tensorboard and struct.unpack(
                        "<I", head[8:])[0] != masked_crc32c(head[:8]):
                    self.broken = True
                    return
                if written - self.offset < header + size + footer:
                    return
                data = file.read(size)
                file.read(footer)
                self.offset += header + size + footer
                yield data

    def scalars(self):
        """(step, [(name, value)]) of each whole record written since the last look."""
        read = tensorboard_event if self.tensorboard else visualdl_record
        for record in self.records():
            step, scalars = read(record, self.plugins)
            named = [(metric_name(self.prefix + tag), value) for tag, value in scalars if math.isfinite(value)]
            named = [(name, value) for name, value in named if name not in NOT_METRICS]
            if step >= 0 and named:
                yield step, named


class Tailer(object):
    """Every event file under the directory; those there before the program started are read from their end."""

    def __init__(self, root):
        self.root, self.files, self.first = root, {}, True
        self.failed = False

    def look(self):
        if self.failed:
            return
        try:
            for path, prefix in self.event_files():
                if path not in self.files:
                    self.files[path] = EventFile(path, prefix, os.path.getsize(path) if self.first else 0)
                event_file = self.files[path]
                if not event_file.broken:
                    self.report(event_file.scalars())
            self.first = False
        except Exception as error:  # never the training's problem: say so once and stop reading
            self.failed = True
            sys.stderr.write("paddle-jobs: TensorBoard scalars under %s are no longer read: %r\n" % (self.root, error))

    def event_files(self):
        for folder, folders, names in os.walk(self.root):
            folders.sort()
            relative = os.path.relpath(folder, self.root)
            prefix = "" if relative == "." else relative.replace(os.sep, "/") + "/"
            for name in sorted(names):
                if "tfevents" in name or name.startswith("vdlrecords."):
                    yield os.path.join(folder, name), prefix

    @staticmethod
    def report(scalars):
        pending_step, pending = None, {}
        for step, named in scalars:
            if step != pending_step:
                write_lines(pending_step, pending)
                pending_step, pending = step, {}
            pending.update(named)
        write_lines(pending_step, pending)


def write_lines(step, values):
    line = {}
    for name, value in values.items():
        if line and len(json.dumps(line)) + len(json.dumps({name: value})) > LONGEST_LINE:
            write_line(step, line)
            line = {}
        line[name] = value
    if line:
        write_line(step, line)


def write_line(step, values):
    report = {"step": step}
    report.update(values)
    write(MARKER + json.dumps(report) + "\n")


def write(text_line):
    data = text_line.encode("utf-8")
    while data:
        try:
            data = data[os.write(1, data):]
        except OSError:
            return


def main():
    entry_point = sys.argv[1]
    root = os.path.expandvars(os.environ.get("PADDLE_JOB_TENSORBOARD_DIR", ""))
    tailer = Tailer(root)
    tailer.look()
    # A container's first process alone gets its stop signal; elsewhere the backend signals the whole
    # process group or namespace, and the program would get it twice.
    passes_signals_on = os.getpid() == 1
    children = []

    def on_signal(number, _frame):
        if passes_signals_on and children and children[0].poll() is None:
            children[0].send_signal(number)

    for name in ("SIGTERM", "SIGINT", "SIGHUP", "SIGUSR1", "SIGUSR2"):
        signal.signal(getattr(signal, name), on_signal)
    child = subprocess.Popen(["sh", "-c", entry_point])
    children.append(child)
    while True:
        try:
            code = child.wait(timeout=POLL_SECONDS)
            break
        except subprocess.TimeoutExpired:
            tailer.look()
    tailer.look()  # what the program's writers flushed as it ended
    if code < 0:  # ends as the program did, killed by the same signal
        try:
            signal.signal(-code, signal.SIG_DFL)
        except (OSError, ValueError):
            pass  # SIGKILL has no handler to reset
        os.kill(os.getpid(), -code)
        code = 128 - code  # a container's first process outlives signals it sends itself
    sys.exit(code)


main()
