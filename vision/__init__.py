"""jxmj tile reading: image loading, ONNX detector inference, layout grouping."""
