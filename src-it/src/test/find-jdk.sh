#!/usr/bin/env bash
# Prints the home of a JDK whose feature version is at least $1 (e.g. 21), or nothing (exit 0) when none is found.
# Used by src-it/pom.xml (the payara-micro-7 execution) and by .ci/run, so both find the same JDK.
#
#   find-jdk.sh MIN [EXPLICIT_HOME]
#
# Order: EXPLICIT_HOME (the Maven property jdk21.home), then the environment variable JDK21_HOME, then the JDKs
# under /usr/lib/jvm, /usr/java, /opt/java, /opt/jdk and ~/.jdks, of which the lowest version >= MIN wins
# (ties: the first by name). A home given explicitly (argument or JDK21_HOME) that is not a JDK >= MIN is an
# error (exit 2, message on stderr): a setting that is wrong must not turn into a quietly skipped tier.
set -uo pipefail
min=${1:?usage: find-jdk.sh MIN [EXPLICIT_HOME]}
explicit=${2:-}

# The feature version of the JDK at $1 (25 for 25.0.3, 8 for 1.8.0_x), or nothing.
feature_version() {
  local home=$1 version=""
  [ -x "$home/bin/java" ] || return 0
  if [ -r "$home/release" ]; then
    version=$(sed -n 's/^JAVA_VERSION="\(.*\)"$/\1/p' "$home/release")
  fi
  if [ -z "$version" ]; then
    version=$("$home/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')
  fi
  version=${version#1.}
  echo "${version%%[!0-9]*}"
}

check_explicit() {
  local home=$1 from=$2 v
  v=$(feature_version "$home")
  if [ -z "$v" ] || [ "$v" -lt "$min" ]; then
    echo "find-jdk.sh: $from=$home is not a JDK $min or newer (found version '${v:-none}', bin/java must exist)" >&2
    exit 2
  fi
  echo "$home"
  exit 0
}

if [ -n "$explicit" ]; then check_explicit "$explicit" "jdk21.home"; fi
if [ -n "${JDK21_HOME:-}" ]; then check_explicit "$JDK21_HOME" "JDK21_HOME"; fi

best="" best_version=""
for home in /usr/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk/* "${HOME:-/nonexistent}"/.jdks/*; do
  [ -d "$home" ] || continue
  v=$(feature_version "$home")
  [ -n "$v" ] || continue
  if [ "$v" -ge "$min" ] && { [ -z "$best_version" ] || [ "$v" -lt "$best_version" ]; }; then
    best=$home best_version=$v
  fi
done
echo "$best"
