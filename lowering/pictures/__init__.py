"""lower_tc.lowering.pictures: drawings of shared-memory tiles (docs/pictures.md).

One tile's SVG, with the stdlib and the layout core only (`lower-tc desc show` draws
without xDSL): picture.py assembles it from tile.py (what it shows), tile_views.py (the
logical, shared-memory, descriptor and bank views) and svg.py (the building blocks).
A program's pictures read the IR: picture_program.py collects what `-t svg` and `-t html`
draw, picture_html.py writes the one-page HTML.
"""
