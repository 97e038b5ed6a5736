#!/usr/bin/env python3
"""Thin command-line front ends to real encoders that are only reachable from
Python (PyPI packages): Pillow, pillow-heif, imagecodecs, pidng, pydicom,
OpenEXR, astc-encoder-py, nibabel, mutagen, pyhdf, astropy, mrcfile.  Called from make-test-images.sh:

  pyencode.py pil SRC OUT FORMAT [mode=M] [key=value ...]   Pillow Image.save
  pyencode.py pilall OUT FORMAT SRC... [key=value ...]        Pillow save_all (first SRC + append_images)
  pyencode.py ic CODEC SRC OUT [mode=M] [key=value ...]       imagecodecs.<CODEC>_encode(pixels)
  pyencode.py heif SRC OUT [key=value ...]                     pillow-heif (libheif + x265)
  pyencode.py heiforient OUT W H ORIENTATION                   pillow-heif: EXIF orientation as irot
  pyencode.py dng OUT                                          pidng DNGWriter, 16x16 Bayer 12-bit
  pyencode.py dicom OUT [zeros|tiff-past-eof] [plain|sequence|big-endian]  pydicom, 16x16 MONOCHROME2 Secondary Capture
  pyencode.py exr OUT [compression]                            OpenEXR python bindings, 16x16 half RGB
  pyencode.py exrkind OUT tiled|mipmap|multipart|deepscanline|deeptile
                                                               OpenEXR python bindings, 40x30 (16x16 tiles, ZIP)
  pyencode.py astc SRC OUT BX BY                               astc-encoder-py, raw 128-bit blocks only
  pyencode.py uhdr SRC OUT [key=value ...]                     imagecodecs.ultrahdr_encode (libultrahdr)
  pyencode.py heifmini SRC OUT                                 libheif (pillow-heif's copy) mini/mif3 writer via ctypes
  pyencode.py icc OUT [sRGB|LAB|XYZ]                           LittleCMS profile via Pillow ImageCms
  pyencode.py font OUT ttf|otf|woff|woff2|ttc                  fontTools FontBuilder, one glyph
  pyencode.py xls OUT                                          xlwt Excel 97 workbook (OLE2)
  pyencode.py nifti OUT 1|2 [be]                               nibabel NIfTI-1 / NIfTI-2 single file (.nii), 4x4x2 uint8
  pyencode.py analyze OUT [be]                                 nibabel Analyze 7.5 header (.hdr; its .img dropped), 6x5x2 int16
  pyencode.py mrc OUT [le|be]                                  mrcfile MRC2014 map, 4x5x3 float32 (be: big-endian)
  pyencode.py id3 OUT                                          mutagen ID3v2.4 tag alone (no audio)
  pyencode.py hdf4 OUT                                         pyhdf (HDF4 library) SD file with one float32 4x4 dataset
  pyencode.py fitstext OUT                                     astropy Header.totextfile: FITS cards as text lines
  pyencode.py fitsext OUT [image|compressed|table]             astropy: empty primary HDU, 24x10 int16 image (or a table) in the first extension
  pyencode.py textenc OUT ENCODING                             a short English sentence with curly quotes and an en dash
  pyencode.py solid-pages OUT FORMAT N WxH [key=value ...]     Pillow save_all of N solid-colour RGB frames
  pyencode.py noise-frames OUT FORMAT N WxH SEED [mode=M] [key=value ...]
                                                               Pillow save_all of N frames alternating two noise images
  pyencode.py icc-jpeg SRC OUT sRGB|LAB|XYZ BYTES [key=value ...]
                                                               Pillow JPEG with a LittleCMS profile zero-padded to BYTES

Values of key=value are parsed as Python literals when possible (quality=80,
optimize=True, sizes=[(16,16)]), else kept as strings.
"""
import ast
import sys


def kv(args):
    out = {}
    rest = []
    for a in args:
        if '=' in a and not a.startswith('.') and not a.startswith('/'):
            k, v = a.split('=', 1)
            try:
                out[k] = ast.literal_eval(v)
            except (ValueError, SyntaxError):
                out[k] = v
        else:
            rest.append(a)
    return out, rest


def open_img(path, mode=None):
    from PIL import Image
    im = Image.open(path)
    im.load()
    if mode:
        im = im.convert(mode)
    return im


def cmd_pil(src, out, fmt, *args):
    o, _ = kv(args)
    mode = o.pop('mode', None)
    im = open_img(src, mode)
    im.save(out, format=fmt, **o)


def cmd_pilall(out, fmt, *args):
    o, srcs = kv(args)
    mode = o.pop('mode', None)
    ims = [open_img(s, mode) for s in srcs]
    ims[0].save(out, format=fmt, save_all=True, append_images=ims[1:], **o)


def cmd_ic(codec, src, out, *args):
    import numpy as np
    import imagecodecs
    o, _ = kv(args)
    mode = o.pop('mode', None)
    dtype = o.pop('dtype', None)
    im = open_img(src, mode)
    a = np.asarray(im)
    if dtype:
        a = a.astype(dtype)
        if dtype == 'uint16':
            a = a * 257
    enc = getattr(imagecodecs, codec + '_encode')
    data = enc(a, **o)
    with open(out, 'wb') as f:
        f.write(bytes(data))


def cmd_heif(src, out, *args):
    import pillow_heif
    o, _ = kv(args)
    pillow_heif.register_heif_opener()
    im = open_img(src, 'RGB')
    im.save(out, format='HEIF', **o)


def cmd_dng(out):
    import numpy as np
    from pidng.core import RAW2DNG, DNGTags, Tag
    from pidng.defs import PhotometricInterpretation, CFAPattern, CalibrationIlluminant, DNGVersion, PreviewColorSpace
    w = h = 16
    yy, xx = np.mgrid[0:h, 0:w]
    raw = ((xx * 256 + yy * 128) % 4096).astype(np.uint16)
    t = DNGTags()
    t.set(Tag.ImageWidth, w)
    t.set(Tag.ImageLength, h)
    t.set(Tag.TileWidth, w)
    t.set(Tag.TileLength, h)
    t.set(Tag.Orientation, 1)
    t.set(Tag.PhotometricInterpretation, PhotometricInterpretation.Color_Filter_Array)
    t.set(Tag.SamplesPerPixel, 1)
    t.set(Tag.BitsPerSample, 12)
    t.set(Tag.CFARepeatPatternDim, [2, 2])
    t.set(Tag.CFAPattern, CFAPattern.RGGB)
    t.set(Tag.BlackLevel, 0)
    t.set(Tag.WhiteLevel, 4095)
    t.set(Tag.ColorMatrix1, [[1, 1], [0, 1], [0, 1], [0, 1], [1, 1], [0, 1], [0, 1], [0, 1], [1, 1]])
    t.set(Tag.CalibrationIlluminant1, CalibrationIlluminant.D65)
    t.set(Tag.AsShotNeutral, [[1, 1], [1, 1], [1, 1]])
    t.set(Tag.BaselineExposure, [[0, 1]])
    t.set(Tag.Make, 'ImageSniff')
    t.set(Tag.Model, 'pidng test')
    t.set(Tag.DNGVersion, DNGVersion.V1_4)
    t.set(Tag.DNGBackwardVersion, DNGVersion.V1_2)
    t.set(Tag.PreviewColorSpace, PreviewColorSpace.sRGB)
    import os
    d, name = os.path.split(os.path.abspath(out))
    r = RAW2DNG()
    r.options(t, path='', compress=False)
    r.convert(raw, filename=os.path.join(d, name))
    # pidng appends ".dng"
    if os.path.exists(out + '.dng'):
        os.replace(out + '.dng', out)


def cmd_dicom(out, preamble='zeros', variant='plain'):
    """preamble=zeros: 128 zero bytes.  preamble=tiff-past-eof: the preamble starts with a
    little-endian TIFF header whose IFD0 offset (0x000805E8) points past the end of the
    file, as in pydicom's own test files (MR_small.dcm); the rest of the preamble is zero.
    variant=sequence: a Referenced Image Sequence (0008,1140) of undefined length, its items of
    undefined length too (one holding a nested sequence), before the image pixel module, as
    scanners write them.  variant=big-endian: Explicit VR Big Endian, 3 frames (Number of
    Frames 3), as pydicom's MR_small_expb.dcm and emri_small_big_endian.dcm."""
    import struct
    import numpy as np
    from pydicom.dataset import Dataset, FileMetaDataset
    from pydicom.uid import ExplicitVRLittleEndian, SecondaryCaptureImageStorage
    meta = FileMetaDataset()
    meta.MediaStorageSOPClassUID = SecondaryCaptureImageStorage
    meta.MediaStorageSOPInstanceUID = '1.2.826.0.1.3680043.8.498.1'
    from pydicom.uid import ExplicitVRBigEndian
    meta.TransferSyntaxUID = ExplicitVRBigEndian if variant == 'big-endian' else ExplicitVRLittleEndian
    meta.ImplementationClassUID = '1.2.826.0.1.3680043.8.498.2'
    ds = Dataset()
    ds.file_meta = meta
    if preamble == 'zeros':
        ds.preamble = b'\0' * 128
    elif preamble == 'tiff-past-eof':
        ds.preamble = (b'II*\0' + struct.pack('<I', 0x000805E8)).ljust(128, b'\0')
    else:
        raise SystemExit('unknown preamble ' + preamble)
    ds.SOPClassUID = SecondaryCaptureImageStorage
    ds.SOPInstanceUID = meta.MediaStorageSOPInstanceUID
    ds.StudyInstanceUID = '1.2.826.0.1.3680043.8.498.3'
    ds.SeriesInstanceUID = '1.2.826.0.1.3680043.8.498.4'
    ds.Modality = 'OT'
    ds.PatientName = 'Test^Image'
    ds.PatientID = '0'
    if variant == 'sequence':
        from pydicom.sequence import Sequence
        def item(uid):
            i = Dataset()
            i.ReferencedSOPClassUID = SecondaryCaptureImageStorage
            i.ReferencedSOPInstanceUID = uid
            i.is_undefined_length_sequence_item = True
            return i
        code = Dataset()
        code.CodeValue = '121311'
        code.CodingSchemeDesignator = 'DCM'
        code.CodeMeaning = 'Localizer'
        code.is_undefined_length_sequence_item = True
        first = item('1.2.826.0.1.3680043.8.498.5')
        first.PurposeOfReferenceCodeSequence = Sequence([code])
        first['PurposeOfReferenceCodeSequence'].is_undefined_length = True
        ds.ReferencedImageSequence = Sequence([first, item('1.2.826.0.1.3680043.8.498.6')])
        ds['ReferencedImageSequence'].is_undefined_length = True
    elif variant != 'plain' and variant != 'big-endian':
        raise SystemExit('unknown variant ' + variant)
    ds.Rows = 16
    ds.Columns = 16
    ds.SamplesPerPixel = 1
    ds.PhotometricInterpretation = 'MONOCHROME2'
    ds.BitsAllocated = 8
    ds.BitsStored = 8
    ds.HighBit = 7
    ds.PixelRepresentation = 0
    yy, xx = np.mgrid[0:16, 0:16]
    frame = ((xx * 16 + yy) % 256).astype(np.uint8).tobytes()
    if variant == 'big-endian':
        ds.NumberOfFrames = 3
        ds.PixelData = frame * 3
        ds.save_as(out, enforce_file_format=True, little_endian=False, implicit_vr=False)
        return
    ds.PixelData = frame
    ds.save_as(out, enforce_file_format=True)


def cmd_exr(out, compression="ZIP_COMPRESSION", display=None):
    """16 x 16 pixels. With DISPLAY (WxH), the display window is (0,0)-(W-1,H-1) and the 16 x 16
    data window sits inside it at (8,4) (OpenEXR's two windows)."""
    import numpy as np
    import OpenEXR
    yy, xx = np.mgrid[0:16, 0:16]
    rgb = np.stack([xx / 15.0, yy / 15.0, np.full((16, 16), 0.5)], axis=-1).astype(np.float16)
    header = {'compression': getattr(OpenEXR, compression), 'type': OpenEXR.scanlineimage}
    if display:
        w, h = (int(n) for n in display.split('x'))
        header['displayWindow'] = (np.array([0, 0], dtype=np.int32), np.array([w - 1, h - 1], dtype=np.int32))
        header['dataWindow'] = (np.array([8, 4], dtype=np.int32), np.array([23, 19], dtype=np.int32))
    with OpenEXR.File(header, {'RGB': rgb}) as f:
        f.write(out)


def cmd_exrkind(out, kind):
    """40 x 30 pixels, ZIP-compressed, in one of OpenEXR's other layouts: one level of 16 x 16
    tiles; mipmapped tiles (the binding writes the first level only: the other levels' offsets
    stay 0); two scan-line parts; deep scan lines or deep tiles (0 to 2 float samples a pixel)."""
    import numpy as np
    import OpenEXR
    yy, xx = np.mgrid[0:30, 0:40]
    rgb = np.stack([xx / 39.0, yy / 29.0, np.full((30, 40), 0.5)], axis=-1).astype(np.float16)

    def tiles(mode):
        t = OpenEXR.TileDescription()
        t.xSize, t.ySize, t.mode = 16, 16, mode
        return t
    zip_ = OpenEXR.ZIP_COMPRESSION
    if kind in ('tiled', 'mipmap'):
        mode = OpenEXR.ONE_LEVEL if kind == 'tiled' else OpenEXR.MIPMAP_LEVELS
        header = {'compression': zip_, 'type': OpenEXR.tiledimage, 'tiles': tiles(mode)}
        with OpenEXR.File(header, {'RGB': rgb}) as f:
            f.write(out)
    elif kind == 'multipart':
        parts = [OpenEXR.Part({'compression': zip_, 'type': OpenEXR.scanlineimage}, {'RGB': rgb}, name='a'),
                 OpenEXR.Part({'compression': OpenEXR.PIZ_COMPRESSION, 'type': OpenEXR.scanlineimage}, {'RGB': rgb}, name='b')]
        with OpenEXR.File(parts) as f:
            f.write(out)
    else:
        depth = np.empty((30, 40), dtype=object)
        for y in range(30):
            for x in range(40):
                depth[y, x] = np.array([0.5] * ((x + y) % 3), dtype=np.float32)
        header = {'compression': OpenEXR.ZIPS_COMPRESSION, 'type': getattr(OpenEXR, kind)}
        if kind == 'deeptile':
            header['tiles'] = tiles(OpenEXR.ONE_LEVEL)
        with OpenEXR.File(header, {'Z': depth}) as f:
            f.write(out)


def cmd_heiforient(out, w, h, orientation):
    """A W x H gradient saved by pillow-heif with EXIF orientation ORIENTATION: libheif writes the
    rotation as the image's irot (and a clap when the size is padded for the codec)."""
    import pillow_heif
    from PIL import Image
    pillow_heif.register_heif_opener()
    w, h = int(w), int(h)
    im = Image.new('RGB', (w, h))
    im.putdata([(x * 255 // max(1, w - 1), y * 255 // max(1, h - 1), 128) for y in range(h) for x in range(w)])
    exif = Image.Exif()
    exif[0x0112] = int(orientation)
    im.save(out, format='HEIF', quality=50, exif=exif.tobytes())


def cmd_astc(src, out, bx, by):
    import astc_encoder as ae
    im = open_img(src, 'RGBA')
    bx, by = int(bx), int(by)
    cfg = ae.ASTCConfig(ae.ASTCProfile.LDR, bx, by, 1, 60, ae.ASTCConfigFlags(0))
    ctx = ae.ASTCContext(cfg)
    img = ae.ASTCImage(ae.ASTCType.U8, im.width, im.height, 1, im.tobytes())
    swz = ae.ASTCSwizzle.from_str('RGBA')
    data = ctx.compress(img, swz)
    with open(out, 'wb') as f:
        f.write(bytes(data))


def cmd_uhdr(src, out, *args):
    """imagecodecs.ultrahdr_encode (libultrahdr): HDR input made from SRC as linear
    float16 RGBA scaled to 4x SDR white, encoded as an Ultra HDR JPEG (primary SDR JPEG
    + gain map JPEG located through an MPF APP2 segment)."""
    import numpy as np
    import imagecodecs
    o, _ = kv(args)
    im = open_img(src, 'RGB')
    a = np.asarray(im).astype(np.float32) / 255.0
    lin = np.where(a <= 0.04045, a / 12.92, ((a + 0.055) / 1.055) ** 2.4) * 4.0
    rgba = np.concatenate([lin, np.ones(lin.shape[:2] + (1,), np.float32)], axis=-1).astype(np.float16)
    data = imagecodecs.ultrahdr_encode(rgba, **o)
    with open(out, 'wb') as f:
        f.write(bytes(data))


def cmd_heifmini(src, out, *args):
    """Low-overhead HEIF ('mif3' brand, 'mini' box) written by the libheif bundled with
    pillow-heif, through its C API (heif_context_set_write_mini_format), HEVC via x265."""
    import ctypes
    import glob
    import os
    import pillow_heif
    libdir = os.path.join(os.path.dirname(pillow_heif.__file__), '..', 'pillow_heif.libs')
    lib = ctypes.CDLL(glob.glob(os.path.join(libdir, 'libheif*.so*'))[0])

    class Err(ctypes.Structure):
        _fields_ = [('code', ctypes.c_int), ('subcode', ctypes.c_int), ('message', ctypes.c_char_p)]
    for fn in ('heif_context_get_encoder_for_format', 'heif_encoder_set_lossy_quality', 'heif_image_create',
               'heif_image_add_plane', 'heif_context_encode_image', 'heif_context_write_to_file'):
        getattr(lib, fn).restype = Err
    lib.heif_context_alloc.restype = ctypes.c_void_p
    lib.heif_image_get_plane.restype = ctypes.POINTER(ctypes.c_uint8)

    def ok(e, what):
        if e.code:
            raise SystemExit('%s: %d/%d %s' % (what, e.code, e.subcode, e.message))
    im = open_img(src, 'RGB')
    w, h = im.size
    ctx = ctypes.c_void_p(lib.heif_context_alloc())
    enc = ctypes.c_void_p()
    ok(lib.heif_context_get_encoder_for_format(ctx, 1, ctypes.byref(enc)), 'encoder')   # 1 = HEVC
    ok(lib.heif_encoder_set_lossy_quality(enc, 50), 'quality')
    img = ctypes.c_void_p()
    ok(lib.heif_image_create(w, h, 1, 10, ctypes.byref(img)), 'image')   # RGB, interleaved RGB
    ok(lib.heif_image_add_plane(img, 10, w, h, 8), 'plane')
    stride = ctypes.c_int()
    p = lib.heif_image_get_plane(img, 10, ctypes.byref(stride))
    raw = im.tobytes()
    for y in range(h):
        ctypes.memmove(ctypes.addressof(p.contents) + y * stride.value, raw[y * w * 3:(y + 1) * w * 3], w * 3)
    lib.heif_context_set_write_mini_format(ctx, 1)
    handle = ctypes.c_void_p()
    ok(lib.heif_context_encode_image(ctx, img, enc, None, ctypes.byref(handle)), 'encode')
    ok(lib.heif_context_write_to_file(ctx, out.encode()), 'write')


def cmd_icc(out, kind='sRGB'):
    """ICC profile written by LittleCMS through Pillow's ImageCms (neighbour, not an image)."""
    from PIL import ImageCms
    p = ImageCms.createProfile(kind)
    with open(out, 'wb') as f:
        f.write(ImageCms.ImageCmsProfile(p).tobytes())


def cmd_font(out, flavor):
    """A one-glyph font built with fontTools FontBuilder: flavor ttf (glyf outlines),
    otf (CFF outlines, 'OTTO'), woff or woff2 (ttf wrapped), or ttc (a TrueType collection of
    two such fonts, written by fontTools' TTCollection).  Neighbour, not an image."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.pens.t2CharStringPen import T2CharStringPen
    if flavor == 'ttc':
        import io
        from fontTools.ttLib import TTFont
        from fontTools.ttLib.ttCollection import TTCollection
        fonts = []
        for _ in range(2):
            buf = io.BytesIO()
            cmd_font(buf, 'ttf')
            buf.seek(0)
            fonts.append(TTFont(buf))
        collection = TTCollection()
        collection.fonts = fonts
        collection.save(out)
        return
    cff = flavor == 'otf'
    fb = FontBuilder(1000, isTTF=not cff)
    fb.setupGlyphOrder(['.notdef', 'A'])
    fb.setupCharacterMap({ord('A'): 'A'})
    if cff:
        def cs():
            pen = T2CharStringPen(600, None)
            pen.moveTo((100, 0)); pen.lineTo((300, 700)); pen.lineTo((500, 0)); pen.closePath()
            return pen.getCharString()
        fb.setupCFF('ImageSniffTest', {'FullName': 'ImageSniff Test'}, {'.notdef': cs(), 'A': cs()}, {})
    else:
        def gl():
            pen = TTGlyphPen(None)
            pen.moveTo((100, 0)); pen.lineTo((300, 700)); pen.lineTo((500, 0)); pen.closePath()
            return pen.glyph()
        fb.setupGlyf({'.notdef': gl(), 'A': gl()})
    fb.setupHorizontalMetrics({'.notdef': (600, 100), 'A': (600, 100)})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({'familyName': 'ImageSniffTest', 'styleName': 'Regular'})
    fb.setupOS2()
    fb.setupPost()
    if flavor in ('woff', 'woff2'):
        fb.font.flavor = flavor
    fb.save(out)


def cmd_xls(out):
    """A real OLE2 compound document (Excel 97 workbook) written by xlwt.  Neighbour."""
    import xlwt
    wb = xlwt.Workbook()
    ws = wb.add_sheet('not an image')
    ws.write(0, 0, 'ImageSniff')
    wb.save(out)


def cmd_nifti(out, version, order='le'):
    """NIfTI single file written by nibabel: 4x4x2 uint8 ramp, identity affine.  version 1
    (348-byte header, "n+1" at 344) or 2 (540-byte header, "n+2" at 4); order be writes a
    big-endian NIfTI-1 header (nibabel Nifti1Header(endianness='>')).  nibabel wants a .nii
    name, so call it with @OUT.nii@."""
    import numpy as np
    import nibabel as nib
    data = np.arange(32, dtype=np.uint8).reshape(4, 4, 2)
    cls = {'1': (nib.Nifti1Image, nib.Nifti1Header), '2': (nib.Nifti2Image, nib.Nifti2Header)}[version]
    hdr = cls[1](endianness='>' if order == 'be' else '<')
    hdr.set_data_dtype(np.uint8)
    nib.save(cls[0](data, np.eye(4), header=hdr), out)


def cmd_mrc(out, order='le'):
    """MRC2014 map written by mrcfile (CCP-EM's reference Python library): 3 sections of 5 rows
    of 4 float32 columns, a ramp; order be writes it big-endian (the machine stamp 11 11)."""
    import numpy as np
    import mrcfile
    data = np.arange(60, dtype=np.float32).reshape(3, 5, 4)
    if order == 'be':
        data = data.astype('>f4')
    with mrcfile.new(out, overwrite=True) as m:
        m.set_data(data)


def cmd_analyze(out, order='le'):
    """Analyze 7.5 image pair written by nibabel (AnalyzeImage): the 348-byte .hdr is kept as OUT,
    the .img beside it (the pixels) is removed.  order be writes a big-endian header."""
    import os
    import numpy as np
    import nibabel as nib
    data = np.arange(60, dtype=np.int16).reshape(6, 5, 2)
    hdr = nib.AnalyzeHeader(endianness='>' if order == 'be' else '<')
    hdr.set_data_dtype(np.int16)
    nib.save(nib.AnalyzeImage(data, np.eye(4), header=hdr), out + '.hdr')
    os.replace(out + '.hdr', out)
    os.remove(out + '.img')


def cmd_id3(out):
    """An ID3v2.4 tag (TIT2, TPE1) written by mutagen into an empty file: a tag with its
    padding and no audio frame after it (not an MP3)."""
    from mutagen.id3 import ID3, TIT2, TPE1
    open(out, 'wb').close()
    tag = ID3()
    tag.add(TIT2(encoding=3, text='ImageSniff'))
    tag.add(TPE1(encoding=3, text='no audio follows'))
    tag.save(out, v2_version=4)


def cmd_hdf4(out):
    """HDF4 scientific data set file written by the HDF4 library through pyhdf: one float32
    4x4 dataset with an attribute.  A container that starts 0E 03 13 01, not an image."""
    import numpy as np
    from pyhdf.SD import SD, SDC
    sd = SD(out, SDC.WRITE | SDC.CREATE | SDC.TRUNC)
    ds = sd.create('temperature', SDC.FLOAT32, (4, 4))
    ds[:] = np.arange(16, dtype=np.float32).reshape(4, 4)
    ds.units = 'K'
    ds.endaccess()
    sd.end()


def cmd_fitsext(out, kind='image'):
    """A FITS file as observatories write them, with astropy: an empty primary HDU (NAXIS 0),
    then the image, 24 columns by 10 rows of int16, in the first extension: kind image is an
    IMAGE extension, kind compressed a tile-compressed image (CompImageHDU, Rice: a BINTABLE
    with ZIMAGE = T, as fpack writes it). Kind table holds no image: a binary table of 10 rows
    (an int16 and a float64 column) in the first extension, as catalogues and spectra come."""
    import numpy as np
    from astropy.io import fits
    data = np.arange(240, dtype=np.int16).reshape(10, 24)
    if kind == 'table':
        hdu = fits.BinTableHDU.from_columns([fits.Column(name='id', format='I', array=np.arange(10, dtype=np.int16)),
                                             fits.Column(name='flux', format='D', array=np.linspace(0, 1, 10))])
    else:
        hdu = fits.ImageHDU(data) if kind == 'image' else fits.CompImageHDU(data, compression_type='RICE_1')
    fits.HDUList([fits.PrimaryHDU(), hdu]).writeto(out, overwrite=True)


def cmd_fitstext(out):
    """FITS header cards as a text file (astropy Header.totextfile): each 80-column card is
    followed by a newline, so BITPIX starts at offset 81 and there is no 2880-byte block
    (like astropy's own irac_sip.hdr).  Text, not a FITS file."""
    from astropy.io import fits
    h = fits.Header()
    h['SIMPLE'] = (True, 'conforms to FITS standard')
    h['BITPIX'] = (-32, 'bits per pixel')
    h['NAXIS'] = (2, 'number of axes')
    h['NAXIS1'] = (32, 'axis length')
    h['NAXIS2'] = (32, 'axis length')
    h['CTYPE1'] = ('RA---TAN-SIP', 'TAN projection with SIP distortion')
    h['CTYPE2'] = ('DEC--TAN-SIP', 'TAN projection with SIP distortion')
    h['A_ORDER'] = 2
    h['B_ORDER'] = 2
    h.totextfile(out, endcard=True, overwrite=True)


TEXT_SAMPLE = ('The label on the box said \u201cphoto\u201d \u2013 but the file\u2019s bytes are '
               'only prose.\nA caf\u00e9 menu, 2 \u2013 4 pages, was scanned elsewhere.\n')


def cmd_textenc(out, encoding):
    """TEXT_SAMPLE (curly quotes, en dash, e-acute) encoded by Python's codec: cp1252 (93 94
    96 92 E9), mac_roman (D2 D3 D0 D5 8E) or utf-32-le (written with a BOM FF FE 00 00)."""
    text = TEXT_SAMPLE
    if encoding.lower().replace('_', '-') in ('utf-32-le', 'utf-32-be', 'utf-16-le', 'utf-16-be'):
        text = '\ufeff' + text
    with open(out, 'wb') as f:
        f.write(text.encode(encoding))


def cmd_solid_pages(out, fmt, n, size, *args):
    """N pages (frames) of WxH, page i one solid RGB colour ((37i, 91i, 173i) mod 256, so no two
    neighbours are alike), saved by Pillow with save_all: a multi-page file whose pages compress
    well by any general-purpose compressor."""
    from PIL import Image
    o, _ = kv(args)
    w, h = (int(v) for v in size.split('x'))
    ims = [Image.new('RGB', (w, h), ((37 * i) % 256, (91 * i) % 256, (173 * i) % 256)) for i in range(int(n))]
    ims[0].save(out, format=fmt, save_all=True, append_images=ims[1:], **o)


def cmd_noise_frames(out, fmt, n, size, seed, *args):
    """N frames of WxH alternating two pseudo-random images A, B, A, B ... (Python's
    random.Random(SEED), so the bytes are fixed), saved by Pillow with save_all.  mode=P
    (default): random palette indices under one 3-3-2 RGB palette of 256 colours, so a GIF needs
    no quantizing and every frame shares the global colour table; mode=RGB: random RGB bytes.
    Every frame differs from the one before it everywhere, so no encoder merges or crops them,
    and equal frames encode to equal bytes."""
    import random
    from PIL import Image
    o, _ = kv(args)
    mode = o.pop('mode', 'P')
    w, h = (int(v) for v in size.split('x'))
    rng = random.Random(int(seed))
    pair = []
    for _ in range(2):
        im = Image.frombytes(mode, (w, h), rng.randbytes(w * h * len(mode)))
        if mode == 'P':
            im.putpalette([c for i in range(256) for c in (i & 0xE0, (i & 0x1C) << 3, (i & 3) << 6)])
        pair.append(im)
    ims = [pair[i % 2] for i in range(int(n))]
    ims[0].save(out, format=fmt, save_all=True, append_images=ims[1:], **o)


def cmd_icc_jpeg(src, out, kind, nbytes, *args):
    """Pillow JPEG carrying a large ICC profile: LittleCMS's profile of the given kind (Pillow
    ImageCms createProfile(KIND), as `icc` writes it) padded with zero bytes to NBYTES, its
    header's profile size (bytes 0-3, big-endian) set to NBYTES (the profile ID stays zero: not
    computed).  Pillow splits a profile into APP2 ICC_PROFILE segments of at most 65519 bytes,
    so a profile larger than the first bytes a reader looks at puts the frame header (SOF) past
    them."""
    import struct
    from PIL import ImageCms
    o, _ = kv(args)
    mode = o.pop('mode', 'RGB')
    icc = bytearray(ImageCms.ImageCmsProfile(ImageCms.createProfile(kind)).tobytes())
    n = int(nbytes)
    if n < len(icc):
        raise SystemExit('icc-jpeg: the profile is already %d bytes' % len(icc))
    icc += bytes(n - len(icc))
    struct.pack_into('>I', icc, 0, n)
    open_img(src, mode).save(out, format='JPEG', icc_profile=bytes(icc), **o)


def main(argv):
    cmd, *args = argv[1:]
    {'pil': cmd_pil, 'pilall': cmd_pilall, 'ic': cmd_ic, 'heif': cmd_heif, 'dng': cmd_dng,
     'dicom': cmd_dicom, 'exr': cmd_exr, 'exrkind': cmd_exrkind, 'astc': cmd_astc,
     'uhdr': cmd_uhdr, 'heifmini': cmd_heifmini, 'icc': cmd_icc, 'font': cmd_font, 'xls': cmd_xls,
     'nifti': cmd_nifti, 'id3': cmd_id3, 'hdf4': cmd_hdf4, 'fitstext': cmd_fitstext, 'fitsext': cmd_fitsext,
     'textenc': cmd_textenc, 'solid-pages': cmd_solid_pages, 'noise-frames': cmd_noise_frames,
     'icc-jpeg': cmd_icc_jpeg, 'heiforient': cmd_heiforient,
     'analyze': cmd_analyze, 'mrc': cmd_mrc}[cmd](*args)


if __name__ == '__main__':
    main(sys.argv)
