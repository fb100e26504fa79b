// Material for MkDocs' own inline script of partials/javascripts/content.html (Material 9.8.2), moved into a file so that
// the site's Content-Security-Policy forbids every inline script (docs/safety.md). Kept as Material wrote it.
var target=document.getElementById(location.hash.slice(1));target&&target.name&&(target.checked=target.name.startsWith("__tabbed_"))
