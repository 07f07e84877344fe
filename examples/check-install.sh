#!/usr/bin/env bash
# Checks that `mvn install` left in the local repository everything an application takes from Object Streams: the
# BOM, the parent the modules' poms name, and each library module with its sources and javadoc jars. Run after
# `mvn install` (.ci/run does); prints what is missing and fails.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' streams-bom/pom.xml | head -1)
# The local repository: ~/.m2/repository, or LOCAL_REPOSITORY when Maven is set up to use another one.
repo=${LOCAL_REPOSITORY:-$HOME/.m2/repository}
base="$repo/io/objectstreams"
missing=0
expect() {
  if [ ! -s "$base/$1" ]; then
    echo "MISSING after mvn install: $base/$1" >&2
    missing=1
  fi
}
expect "streams-bom/$version/streams-bom-$version.pom"
expect "object-streams-parent/$version/object-streams-parent-$version.pom"
for module in streams-api streams-ejb streams-web; do
  expect "$module/$version/$module-$version.pom"
  expect "$module/$version/$module-$version.jar"
  expect "$module/$version/$module-$version-sources.jar"
  expect "$module/$version/$module-$version-javadoc.jar"
done
if [ "$missing" -ne 0 ]; then
  exit 1
fi
echo "Object Streams $version is installed in $repo: BOM, parent, and streams-api, streams-ejb, streams-web with sources and javadoc."
