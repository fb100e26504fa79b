"""A game's "Play online" page: for each online client, what to download or paste and how to install it.

The files it offers are the site's own copies of the exports (``carddb.site.client_files``), whose URLs point
at the site; the install steps are those of ``docs/exports.md``.
"""

from __future__ import annotations

from posixpath import relpath

from carddb.core.game.definition import GameDefinition
from carddb.exporters.published import is_published
from carddb.site.client_files import GameClients
from carddb.site.markup import html_text, html_url, md_code, md_text

_TITLES = {"tts": "Tabletop Simulator", "lackey": "LackeyCCG", "cockatrice": "Cockatrice", "apprentice": "Apprentice"}


def online_page(game: GameDefinition, clients: GameClients, page: str, site_url: str) -> str:
    """``page`` is the page's docs path (``games/<id>/online.md``), which its links are relative to."""
    here = page.rsplit("/", 1)[0] + "/" + page.rsplit("/", 1)[1].removesuffix(".md")  # served as a folder

    def link(site_path: str, label: str | None = None) -> str:
        name = label or site_path.rsplit("/", 1)[-1]
        return f'<a href="{html_url(relpath(site_path, here))}" download>{html_text(name)}</a>'

    def button(site_path: str, label: str) -> str:  # a link of its own, not one inside a sentence
        return (f'<p><a class="md-button" href="{html_url(relpath(site_path, here))}" download>'
                f'{html_text(label)}</a></p>')

    out = [f"# {md_text(game.name)}: play online", "",
           "Every file below is on this site, and every image address inside it points here, so each player "
           "of a table installs the same files and sees the same cards.", ""]
    if not is_published(site_url):
        out += ['!!! warning "Built for this computer only"', "",
                f"    This site was built for {md_code(site_url)}, an address of the computer that built it: "
                "other players will not see the images. Build it with `SITE_URL` (or `--site-url`) set to "
                "where it is published.", ""]
    offered = clients.offered
    if not offered:
        out += ["No client files were exported for this game (run `carddb build`).", ""]
    if "tts" in offered:
        out += ["## Tabletop Simulator", "",
                "Download a saved object (its `.json`, and the `.png` of the same name for its picture) and put "
                "it in the `Saves/Saved Objects/` folder of Tabletop Simulator's data folder "
                "(Windows: `Documents\\My Games\\Tabletop Simulator`; macOS: `~/Library/Tabletop Simulator`; "
                "Linux: `~/.local/share/Tabletop Simulator`). In a game, it is under "
                "**Objects → Saved Objects**; the card sheets load from this site.", ""]
        for path in offered["tts"]["files"]:
            picture = path.removesuffix(".json") + ".png"
            out.append(f"- {link(path)}" + (f" · {link(picture, 'picture')}" if picture in clients.copies else ""))
        out.append("")
    if "lackey" in offered:
        lackey = offered["lackey"]
        out += ["## LackeyCCG", "",
                "In LackeyCCG, open the plugin tab, paste this address into "
                "**Install or Update from URL!** and press it. LackeyCCG downloads the whole plugin and, "
                "later, whatever changed:", "",
                f'<p><label for="lackey-url-{html_text(game.id)}">Plugin address</label><br>'
                f'<input id="lackey-url-{html_text(game.id)}" class="carddb-copy-url" type="text" readonly '
                f'size="40" value="{html_text(lackey["updatelist"])}"></p>', "",
                f"Or download the plugin and unpack it into LackeyCCG's `plugins` folder (it holds the folder "
                f"{md_code(lackey['plugin'])}):", "", button(lackey["files"][0], "Download the plugin (zip)"), ""]
    if "cockatrice" in offered:
        cockatrice = offered["cockatrice"]
        out += ["## Cockatrice", "",
                "Download the card database and add it with **Database → Add custom set** (or copy it into the "
                "`customsets` folder of Cockatrice's data folder), then restart Cockatrice. Each printing names "
                "its picture on this site, so Cockatrice downloads the pictures itself.", "",
                button(cockatrice["files"][0], "Download the card database"), "",
                "If you prefer a picture address template (**Settings → Card Sources**), add:", "",
                f"    {cockatrice['pictures']}!setcode!/!corrected_name!_!setcode!_!set:num!.jpg", ""]
        if cockatrice["decks"]:
            out += ["Sample decks (open them with the deck editor):", ""]
            out += [f"- {link(path)}" for path in cockatrice["decks"]]
            out.append("")
    if "apprentice" in offered:
        out += ["## Apprentice", "",
                "In the Apprentice folder (where `appr.exe` is), back up `Sets\\cardinfo.dat` and `Expan.dat`, "
                "then unpack the patch over them. Restore the backups to play Magic again.", "",
                button(offered["apprentice"]["files"][0], "Download the patch (zip)"), ""]
    out += ["## Print shops", "",
            "Print-shop files are not on this site: one game for one shop is tens of megabytes. Make them for "
            "your deck with `carddb export printshop`.", ""]
    return "\n".join(out)
