"""Painters: draw a ``FaceLayout`` computed by ``carddb.layout`` (raster with Pillow, vector with ReportLab)."""
