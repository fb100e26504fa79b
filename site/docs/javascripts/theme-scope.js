// Material for MkDocs' own inline script of partials/javascripts/base.html (Material 9.8.2), moved into a file so that
// the site's Content-Security-Policy forbids every inline script (docs/safety.md). Kept as Material wrote it, but for the
// scope, which the page hands over in the script's data-scope attribute.
__md_scope=new URL(document.currentScript.dataset.scope,location),__md_hash=e=>[...e].reduce(((e,_)=>(e<<5)-e+_.charCodeAt(0)),0),__md_get=(e,_=localStorage,t=__md_scope)=>JSON.parse(_.getItem(t.pathname+"."+e)),__md_set=(e,_,t=localStorage,a=__md_scope)=>{try{t.setItem(a.pathname+"."+e,JSON.stringify(_))}catch(e){}}
