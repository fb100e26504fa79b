"""A card: its typed fields, its names (aliases, versions) and the slugs that name its files and pages."""
