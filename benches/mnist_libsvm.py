"""Write MNIST's first N training digits as a LibSVM file (pixels / 255,
labels 0-9), from the IDX files in DATA (xz-compressed, as `cvbench fetch`
leaves them). Usage: mnist_libsvm.py DATA N OUT"""
import lzma
import struct
import sys

data, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
img = lzma.open(f"{data}/train-images-idx3-ubyte.xz").read()
lab = lzma.open(f"{data}/train-labels-idx1-ubyte.xz").read()
_, _, r, c = struct.unpack(">IIII", img[:16])
d = r * c
with open(out, "w") as f:
    for i in range(n):
        px = img[16 + i * d:16 + (i + 1) * d]
        feats = " ".join(f"{j + 1}:{v / 255!r}" for j, v in enumerate(px) if v)
        f.write(f"{lab[8 + i]} {feats}\n")
