// Package shard splits a list of programs among N processes: the shard arithmetic of drrc verify -shard and drrc
// apply -shard, and the variables of the engines that run shards (Bazel's test sharding, Kubernetes Indexed Jobs),
// kept apart from the command line so that it is tested alone.
//
// A Spec is one shard of N. On the command line it is written K/N with K counted from 1 (shard 1/16 … 16/16, as a
// GitHub Actions matrix counts and as people say it); the engines' indices count from 0 and are converted
// (FromEnv).
//
// Every process computes the same assignment of every program to a shard from the same list (Assign), so that the
// shards partition the list exactly: each program is in exactly one shard. A program's shard follows from its Key,
// a stable name of its content: a GraphNet graph's graph_hash.txt (the same graph lands in the same shard in any
// checkout, under any folder name), else its path relative to the folder given. With the durations of a previous
// run (Balance), the programs are dealt longest first to the least loaded shard, and the programs without a
// recorded duration go by their key's hash.
package shard
