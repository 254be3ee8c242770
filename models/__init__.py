"""Shipped ONNX models (see MODEL.md). A package only so that installs carry the files."""
