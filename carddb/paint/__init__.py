"""Painters: draw a ``FaceLayout`` computed by ``carddb.layout`` (raster with Pillow, vector with ReportLab)."""

#: The image formats faces are written in: format name -> Pillow's (here, so naming one needs no Pillow).
IMAGE_FORMATS = {"png": "PNG", "jpg": "JPEG", "jpeg": "JPEG"}
