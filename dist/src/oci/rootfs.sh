#!/usr/bin/env bash
# Builds the file system the OCI image adds under NetWeather's jars, so that the image needs
# no base image from a registry: a Java runtime made with jlink from the building JDK, bin/nws
# as /usr/bin/nws with the few programs it runs (bash, env, readlink, dirname), the shared
# libraries all of them and RocksDB's bundled native library load (copied from this machine),
# the name-service files glibc reads, and the directories a daemon writes.
#
#   rootfs.sh OUT JAVA_HOME ROCKSDB_JAR NWS_SCRIPT
set -euo pipefail
out="$1"
java_home="$2"
rocksdb_jar="$3"
nws_script="$4"

rm -rf "$out"
mkdir -p "$out/opt" "$out/etc" "$out/tmp" "$out/var/lib/netweather" "$out/dev" "$out/proc" "$out/sys"
"$java_home/bin/jlink" \
  --add-modules java.se,jdk.unsupported,jdk.crypto.ec,jdk.crypto.cryptoki,jdk.management,jdk.management.jfr,jdk.jfr,jdk.zipfs,jdk.naming.dns,jdk.localedata,jdk.net \
  --strip-debug --no-header-files --no-man-pages --compress=2 \
  --output "$out/opt/java"

# The image's entrypoint is the same nws as every release's, so the per-daemon JVM options
# hold in a container too.
mkdir -p "$out/usr/bin"
install -m 0755 "$nws_script" "$out/usr/bin/nws"
programs=(bash env readlink dirname)
for prog in "${programs[@]}"; do
  install -m 0755 "$(readlink -f "$(command -v "$prog")")" "$out/usr/bin/$prog"
done

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
(cd "$scratch" && unzip -q -o "$rocksdb_jar" 'librocksdbjni-linux64.so')

# The runtime's own libraries are found through LD_LIBRARY_PATH=/opt/java/lib (set in the
# image): a distribution's java may name its install path, not $ORIGIN, as its run path.
# Every other library any ELF file of the runtime (or RocksDB) links, with the loader itself.
{
  find "$out/opt/java" -type f \( -name '*.so' -o -path '*/bin/*' \)
  for prog in "${programs[@]}"; do echo "$out/usr/bin/$prog"; done
  echo "$scratch/librocksdbjni-linux64.so"
} | while read -r elf; do
  ldd "$elf" 2>/dev/null | awk '/=> \// {print $3} /^[ \t]*\// {print $1}'
done | sort -u | grep -v "^$out/" | while read -r lib; do
  cp -L --parents "$lib" "$out"
done

# The daemons run as an unprivileged user; host names resolve from /etc/hosts, then DNS.
cat >"$out/etc/passwd" <<EOP
root:x:0:0:root:/root:/sbin/nologin
netweather:x:65532:65532:NetWeather daemons:/var/lib/netweather:/sbin/nologin
EOP
cat >"$out/etc/group" <<EOP
root:x:0:
netweather:x:65532:
EOP
echo 'hosts: files dns' >"$out/etc/nsswitch.conf"
echo '127.0.0.1 localhost' >"$out/etc/hosts"
