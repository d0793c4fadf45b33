package drr

import (
	"strconv"
	"strings"
)

// nouns renders a count with its noun, singular or plural: "1 argument", "2 arguments".
func nouns(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// article puts "a" or "an" before a word, by its first letter (an attribute, an i64, a value).
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}
