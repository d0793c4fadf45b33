package playground

import (
	"embed"
	"html/template"
	"io/fs"
	"net/http"

	"github.com/pirdrr/drr/graphview"
)

// The page's files: index.html (a template), app.js and app.css (written by hand, no build step), and editor.js,
// the CodeMirror editor bundled by esbuild from web/ (go generate; see README.md). All are embedded: the page
// loads nothing from the network. The graph's renderer, graphview.js, is graphview's (graphview.RendererScript),
// the one drrc graph's page inlines.
//
//go:generate sh -c "cd web && npm ci --no-audit --no-fund --loglevel=error && npm run --silent build"

//go:embed assets
var assets embed.FS

var pageTemplate = template.Must(template.ParseFS(assets, "assets/index.html"))

// csp allows the page its own origin only: no script, style, font or connection elsewhere. CodeMirror adds its
// styles at run time (style elements), hence 'unsafe-inline' for styles.
const csp = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
	"connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'"

// assetHandler serves /assets/.
func assetHandler() http.Handler {
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err)
	}
	files := http.StripPrefix("/assets/", http.FileServerFS(sub))
	renderer := []byte(graphview.RendererScript())
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", csp)
		w.Header().Set("Cache-Control", "no-cache")
		if r.URL.Path == "/assets/graphview.js" {
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
			w.Write(renderer)
			return
		}
		files.ServeHTTP(w, r)
	})
}

// page serves the playground's page.
func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", csp)
	w.Header().Set("Cache-Control", "no-cache")
	data := struct{ Version string }{s.opts.Version}
	if err := pageTemplate.Execute(w, data); err != nil {
		s.opts.Logf("page: %v", err)
	}
}
