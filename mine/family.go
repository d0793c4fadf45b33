package mine

import (
	"path/filepath"
	"strings"
)

// SampleName returns the name of the model a program belongs to, from its path: the sample folder of a GraphNet
// subgraph_N graph, a graph folder's own name, or a file's base name without its extension.
func SampleName(path string) string {
	path = filepath.Clean(path)
	base := filepath.Base(path)
	if n, ok := strings.CutPrefix(base, "subgraph_"); ok && n != "" && strings.Trim(n, "0123456789") == "" {
		return filepath.Base(filepath.Dir(path))
	}
	if ext := filepath.Ext(base); ext == ".pir" || ext == ".json" {
		base = strings.TrimSuffix(base, ext)
		base = strings.TrimSuffix(base, ".inference")
	}
	return base
}

// Family returns the model family of a sample name: its first word, lower case, after the prefixes that name a
// maker or a language (PP-, chinese-, …) and without a version or size: "bert-base-cased" and "bert-large" are
// bert, "ResNet50_vd" resnet, "MobileNetV3_large_x1_0" mobilenet, "PP-YOLOE-L" yoloe, "ernie-3.0-base-zh" ernie,
// "facebook_llama-7b" llama; a word that is a letter and digits keeps them ("t5-small" is t5), and a word of two
// letters takes the next ("Co-DINO-R50" is co-dino).
func Family(sample string) string {
	words := strings.FieldsFunc(strings.ToLower(sample), func(r rune) bool {
		return r == '-' || r == '_' || r == '.' || r == ' '
	})
	for len(words) > 1 && familyPrefixes[words[0]] {
		words = words[1:]
	}
	if len(words) == 0 {
		return sample
	}
	w := strings.TrimRight(words[0], "0123456789")
	if len(w) > 1 && strings.HasSuffix(w, "v") && len(w) < len(words[0]) {
		w = w[:len(w)-1] // MobileNetV3 → mobilenet
	}
	if len(w) <= 2 && len(words) > 1 && len(w) == len(words[0]) {
		return w + "-" + words[1] // Co-DINO-R50 → co-dino
	}
	if len(w) <= 1 {
		return words[0] // t5-small → t5
	}
	return w
}

// familyPrefixes are first words that say who made a model or its language, not what it is.
var familyPrefixes = map[string]bool{"pp": true, "chinese": true, "paddle": true, "korean": true, "en": true,
	"ch": true, "multilingual": true, "facebook": true, "microsoft": true, "google": true, "hfl": true, "uer": true}
