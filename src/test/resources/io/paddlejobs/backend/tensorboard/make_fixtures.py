"""Writes the event files TensorBoardScalarsTest reads, with the real writers: tensorboardX 2.6.5 (the
TensorBoard format: simple values; tensor scalars as TensorFlow 2 and torch.utils.tensorboard's new style
write them, float32 and float64 in the value lists and an int64 in the tensor's bytes, with the scalars
plugin named on a tag's first value only; a histogram and a text that are no scalars; add_scalars'
sub-runs) and VisualDL 2.5.3 (its own format: add_scalar, add_scalars, a histogram and a text). Run once in a virtual environment with both installed (pip install
tensorboardX==2.6.5 pillow; pip install --no-deps visualdl==2.5.3); the files are committed beside it."""
import glob
import os
import shutil

import struct

import numpy as np
from tensorboardX import SummaryWriter
from tensorboardX.proto.summary_pb2 import Summary, SummaryMetadata
from tensorboardX.proto.tensor_pb2 import TensorProto
from tensorboardX.proto.tensor_shape_pb2 import TensorShapeProto
from visualdl import LogWriter

HERE = os.path.dirname(os.path.abspath(__file__))
LOSS = [2.5, 1.25, 0.5, 0.35]


def tensor_scalar(tag, tensor, first):
    """A scalar as a rank-0 tensor; the plugin is named with a tag's first value only, as TensorFlow 2 does."""
    plugin = SummaryMetadata(plugin_data=SummaryMetadata.PluginData(plugin_name="scalars")) if first else None
    return Summary(value=[Summary.Value(tag=tag, tensor=tensor, metadata=plugin)])


def fixed_name(folder, pattern, name):
    for path in glob.glob(os.path.join(folder, "**", pattern), recursive=True):
        os.rename(path, os.path.join(os.path.dirname(path), name))


tensorboard = os.path.join(HERE, "tensorboardx")
shutil.rmtree(tensorboard, ignore_errors=True)
with SummaryWriter(logdir=tensorboard) as writer:
    writer.add_text("note", "no scalar", 0)
    for step, loss in enumerate(LOSS):
        writer.add_scalar("loss", loss, step)
        writer.add_scalar("lr", 0.1 / (step + 1), step)
        events = writer._get_file_writer()
        shape = TensorShapeProto()
        events.add_summary(tensor_scalar("acc", TensorProto(dtype="DT_FLOAT", tensor_shape=shape,
                                                            float_val=[0.25 * step]), step == 0), step)
        events.add_summary(tensor_scalar("precise", TensorProto(dtype="DT_DOUBLE", tensor_shape=shape,
                                                                double_val=[1.0 / 3 + step]), step == 0), step)
        events.add_summary(tensor_scalar("count", TensorProto(dtype="DT_INT64", tensor_shape=shape,
                                                              tensor_content=struct.pack("<q", 10 * step)), True), step)
    writer.add_histogram("weights", np.arange(10.0), 1)
    writer.add_scalars("pair", {"a": 1.5, "b": -2.0}, 2)
fixed_name(tensorboard, "events.out.tfevents.*", "events.out.tfevents.fixture")

visualdl = os.path.join(HERE, "visualdl")
shutil.rmtree(visualdl, ignore_errors=True)
with LogWriter(logdir=visualdl, file_name="vdlrecords.fixture.log") as writer:
    writer.add_text("note", "no scalar", 0)
    for step, loss in enumerate(LOSS):
        writer.add_scalar("train/loss", loss, step)
    writer.add_histogram("weights", np.arange(10.0), 1)
    writer.add_scalars("pair", {"a": 1.5, "b": -2.0}, 2)
