"""The application layer: what runs every writer below it. ``build`` (the main job, incremental), ``watch``
(building again on every saved file) and ``serve`` (the local site that follows the build)."""
