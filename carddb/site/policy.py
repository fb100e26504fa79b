"""What a page of the site may load and run, said once for every place a policy is written: the ``<meta>`` of each
built page (``site/overrides/main.html``, for hosts that send no headers), the ``_headers`` file of a built site
(Netlify, Cloudflare Pages) and every answer of ``carddb site serve``.

The pages run no inline script and no script of another host: a card's data that an escaping bug let into a page
as markup still cannot run (``docs/safety.md``). Scripts are the site's own files; the rules engine's WebAssembly
may be compiled (``'wasm-unsafe-eval'``, which allows no JavaScript ``eval``); styles may be inline (Material's
and the site's ``style`` attributes); images may be ``data:`` (the studio's live face, inline icons); nothing
is fetched from, sent to or framed by another origin.
"""

from __future__ import annotations

#: The policy a ``<meta http-equiv>`` can carry (a meta cannot say ``frame-ancestors``).
PAGE_POLICY = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; "
               "img-src 'self' data:; font-src 'self'; connect-src 'self'; worker-src 'self'; object-src 'none'; "
               "base-uri 'self'; form-action 'none'")
#: The whole policy, for a header: the page's, and no other site may frame a page.
HEADER_POLICY = f"{PAGE_POLICY}; frame-ancestors 'none'"
#: The headers every answer carries, served or published.
SECURITY_HEADERS = {
    "Content-Security-Policy": HEADER_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def host_headers_rule() -> str:
    """The rule of a ``_headers`` file giving every address of the site the security headers."""
    return "/*\n" + "".join(f"  {name}: {value}\n" for name, value in SECURITY_HEADERS.items())
