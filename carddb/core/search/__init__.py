"""The search language of ``carddb cards search`` and the site's galleries."""
