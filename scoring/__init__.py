"""jxmj scoring engine for 九江 (Jiujiang), 星子 (Xingzi) and 新余 (Xinyu) mahjong.

Pure Python; depends on nothing else of jxmj.
"""
