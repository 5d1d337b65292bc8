#!/usr/bin/env bash
# A throwaway Spark standalone cluster for the tests, from the pyspark package: `start DIR PYTHON
# [WORKERS]` starts a master and WORKERS (default 2) workers of one core each, every one its own
# JVM on loopback, their logs and pids in DIR, and prints the master's URL; `stop DIR` stops them
# (and the executors they started) and deletes DIR. PYTHON is the interpreter whose pyspark is
# used. Installs Debian's default-jre-headless when no Java is on the machine (needs root and
# apt); exits 1, saying why, when the cluster cannot be had.
set -euo pipefail
command="${1:?usage: throwaway-spark.sh start DIR PYTHON [WORKERS] | stop DIR}"
dir="${2:?the cluster directory}"

free_port() {
  "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Waits until `file` says `pattern` (the daemon is up), or gives up after `seconds`.
wait_for() {
  local file="$1" pattern="$2" seconds="$3" pid="$4"
  for _ in $(seq "$((seconds * 5))"); do
    if grep -q "$pattern" "$file" 2>/dev/null; then
      return 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "-- $(basename "$file" .log) exited; its log ends:" >&2
      tail -20 "$file" >&2
      return 1
    fi
    sleep 0.2
  done
  echo "-- $(basename "$file" .log) did not start in ${seconds}s; its log ends:" >&2
  tail -20 "$file" >&2
  return 1
}

# Every descendant of a process (the executors a worker started, their Python workers).
descendants() {
  local child
  for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do
    echo "$child"
    descendants "$child"
  done
}

case "$command" in
  start)
    python="${3:?the Python interpreter whose pyspark to use}"
    workers="${4:-2}"
    if ! command -v java >/dev/null; then
      if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "-- installing Debian's default-jre-headless" >&2
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jre-headless) >&2 || true
      fi
    fi
    if ! command -v java >/dev/null; then
      echo "-- no Java runtime can be installed here" >&2
      exit 1
    fi
    spark_home="$("$python" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))' 2>/dev/null)" || {
      echo "-- pyspark is not installed for $python" >&2
      exit 1
    }
    mkdir -p "$dir"
    export SPARK_HOME="$spark_home" SPARK_LOCAL_IP=127.0.0.1 SPARK_LOG_DIR="$dir" SPARK_PID_DIR="$dir"
    port="$(free_port)"
    # Each daemon started by exec (spark-class ends in one), so its pid is the JVM's.
    nohup "$spark_home/bin/spark-class" org.apache.spark.deploy.master.Master \
      --host 127.0.0.1 --port "$port" --webui-port "$(free_port)" >"$dir/master.log" 2>&1 &
    echo $! >"$dir/master.pid"
    wait_for "$dir/master.log" "I have been elected leader" 60 "$(cat "$dir/master.pid")"
    url="spark://127.0.0.1:$port"
    for n in $(seq "$workers"); do
      mkdir -p "$dir/work-$n"
      nohup "$spark_home/bin/spark-class" org.apache.spark.deploy.worker.Worker "$url" \
        --host 127.0.0.1 --cores 1 --memory 2g --webui-port "$(free_port)" \
        --work-dir "$dir/work-$n" >"$dir/worker-$n.log" 2>&1 &
      echo $! >"$dir/worker-$n.pid"
    done
    for n in $(seq "$workers"); do
      wait_for "$dir/worker-$n.log" "Successfully registered with master" 60 "$(cat "$dir/worker-$n.pid")"
    done
    echo "$url"
    ;;
  stop)
    [ -d "$dir" ] || exit 0
    pids=""
    for file in "$dir"/worker-*.pid "$dir"/master.pid; do
      [ -f "$file" ] || continue
      pid="$(cat "$file")"
      pids="$pids $pid $(descendants "$pid" | tr '\n' ' ')"
    done
    for pid in $pids; do kill "$pid" 2>/dev/null || true; done
    for _ in $(seq 50); do
      alive=""
      for pid in $pids; do kill -0 "$pid" 2>/dev/null && alive="$alive $pid"; done
      [ -z "$alive" ] && break
      sleep 0.2
    done
    for pid in $pids; do kill -9 "$pid" 2>/dev/null || true; done
    rm -rf "$dir"
    ;;
  *)
    echo "usage: throwaway-spark.sh start DIR PYTHON [WORKERS] | stop DIR" >&2
    exit 2
    ;;
esac
