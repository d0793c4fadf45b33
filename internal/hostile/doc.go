// Package hostile makes the hostile inputs of drrc's regression corpus that are too large to commit, or that are
// better made than written: rule files nested or chained deeper than the language allows, files larger than the
// read limits. The small ones live as files in testdata/hostile; the test that runs every kind through every
// command, the language server and the playground server is drrcli's TestHostileInputs.
package hostile
