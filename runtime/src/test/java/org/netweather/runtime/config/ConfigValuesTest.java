package org.netweather.runtime.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Defaults, then a YAML file, then flags; every value checked and traced to its source. */
class ConfigValuesTest {
  static final Setting<Integer> PORT = DaemonSettings.port(8050, "gRPC port.");
  static final Setting<Long> MAX_AGE =
      Setting.longInteger("rawMaxAgeSeconds", 0, "Age.").atLeast(0);
  static final Setting<Double> FACTOR =
      Setting.decimal("staleFactor", 3.0, "Factor.").rule("greater than 0", v -> v > 0);
  static final Setting<Boolean> ANYONE = Setting.bool("probeFromAnyone", false, "Anyone.");
  static final Setting<String> NAMESERVER = DaemonSettings.nameserver();
  static final Setting<List<String>> HOSTS = Setting.list("hosts", List.of(), "Hosts.");
  static final ConfigSchema SCHEMA =
      ConfigSchema.of("sample", PORT, MAX_AGE, FACTOR, ANYONE, NAMESERVER, HOSTS);

  @TempDir Path dir;

  private Path file(String yaml) throws Exception {
    return Files.writeString(dir.resolve("c.yaml"), yaml);
  }

  private ConfigValues load(String yaml) throws Exception {
    return ConfigValues.builder(SCHEMA).file(file(yaml)).build();
  }

  private String error(String yaml) throws Exception {
    Path f = file(yaml);
    return assertThrows(ConfigException.class, () -> ConfigValues.builder(SCHEMA).file(f).build())
        .getMessage();
  }

  @Test
  void defaults_comeFromTheDeclarations() {
    ConfigValues v = SCHEMA.defaults();
    assertEquals(8050, v.get(PORT));
    assertEquals("localhost:8090", v.get(NAMESERVER));
    assertEquals(List.of(), v.get(HOSTS));
    assertEquals(Source.DEFAULT, v.source(PORT));
    assertEquals(ConfigValues.builder(SCHEMA).file(null).build().values(), v.values());
  }

  @Test
  void file_setsEveryType_andRemembersTheLine() throws Exception {
    ConfigValues v =
        load(
            """
        port: 9000
        rawMaxAgeSeconds: 86400
        staleFactor: 2.5
        probeFromAnyone: true
        nameserver: ns.example.org:8090
        hosts: [a, b]
        """);
    assertEquals(9000, v.get(PORT));
    assertEquals(86_400L, v.get(MAX_AGE));
    assertEquals(2.5, v.get(FACTOR));
    assertEquals(true, v.get(ANYONE));
    assertEquals("ns.example.org:8090", v.get(NAMESERVER));
    assertEquals(List.of("a", "b"), v.get(HOSTS));
    assertEquals(Source.file(dir.resolve("c.yaml"), 6), v.source(HOSTS));
    assertEquals("file " + dir.resolve("c.yaml") + ":1", v.source(PORT).toString());
  }

  @Test
  void aListMayAlsoBeCommaSeparated() throws Exception {
    assertEquals(List.of("a", "b"), load("hosts: a, b\n").get(HOSTS));
  }

  @Test
  void emptyFile_leavesTheDefaults() throws Exception {
    assertEquals(SCHEMA.defaults().values(), load("# nothing yet\n").values());
  }

  @Test
  void flag_overridesFile_overridesDefault() throws Exception {
    ConfigValues v =
        ConfigValues.builder(SCHEMA)
            .file(file("port: 9000\nstaleFactor: 2\n"))
            .text(PORT, "9100", Source.flag("--port"))
            .build();
    assertEquals(9100, v.get(PORT));
    assertEquals("flag --port", v.source(PORT).toString());
    assertEquals(2.0, v.get(FACTOR));
    assertEquals(Source.Kind.FILE, v.source(FACTOR).kind());
    assertEquals(0L, v.get(MAX_AGE));
    assertEquals(Source.DEFAULT, v.source(MAX_AGE));
  }

  @Test
  void unknownKey_namesTheKeyTheFileAndTheKnownKeys() throws Exception {
    assertEquals(
        "config file "
            + dir.resolve("c.yaml")
            + ", line 2: unknown key 'prot'"
            + " (known keys: port, rawMaxAgeSeconds, staleFactor, probeFromAnyone, nameserver,"
            + " hosts)",
        error("port: 1\nprot: 2\n"));
  }

  @Test
  void badValues_nameTheKeyAndTheLine() throws Exception {
    String at = "config file " + dir.resolve("c.yaml") + ", line 1: ";
    assertEquals(at + "port: must be 0 to 65535, got 70000", error("port: 70000\n"));
    assertEquals(at + "port: must be an integer, got 'eighty'", error("port: eighty\n"));
    assertEquals(at + "port: must be an integer, got a mapping", error("port: {a: 1}\n"));
    assertEquals(at + "port: must be an integer, got a list", error("port: [1]\n"));
    assertEquals(at + "port: has no value", error("port:\n"));
    assertEquals(at + "staleFactor: must be greater than 0, got 0.0", error("staleFactor: 0\n"));
    assertEquals(
        at + "probeFromAnyone: must be true or false, got 'yes please'",
        error("probeFromAnyone: yes please\n"));
    assertEquals(at + "nameserver: must be host:port, got 'ns'", error("nameserver: ns\n"));
  }

  @Test
  void badFlag_namesTheKeyAndTheFlag() {
    ConfigException e =
        assertThrows(
            ConfigException.class,
            () ->
                ConfigValues.builder(SCHEMA)
                    .text(MAX_AGE, "-1", Source.flag("--raw-max-age-seconds")));
    assertEquals(
        "rawMaxAgeSeconds (--raw-max-age-seconds): must be at least 0, got -1", e.getMessage());
  }

  @Test
  void yamlSyntaxError_saysLineAndColumn() throws Exception {
    String m = error("port: 1\nhosts: [a, b\nstaleFactor: 2\n");
    assertTrue(
        m.matches("config file .*c\\.yaml, line \\d+, column \\d+: YAML syntax error: .+"), m);
    assertTrue(
        error("port: 1\n  bad indent: 2\n").contains(", line 2, column "),
        error("port: 1\n  bad indent: 2\n"));
  }

  @Test
  void duplicateKey_andNonMapping_areErrors() throws Exception {
    assertEquals(
        "config file "
            + dir.resolve("c.yaml")
            + ", line 2, column 1: key 'port'"
            + " appears twice",
        error("port: 1\nport: 2\n"));
    assertTrue(error("- port\n").endsWith(": expected a mapping of key: value"), error("- port\n"));
  }

  @Test
  void missingFile_namesThePath() {
    Path f = dir.resolve("none.yaml");
    assertEquals(
        "config file " + f + ": no such file",
        assertThrows(ConfigException.class, () -> ConfigValues.builder(SCHEMA).file(f))
            .getMessage());
  }

  @Test
  void with_isChecked_andLeavesTheOriginalAlone() {
    ConfigValues d = SCHEMA.defaults();
    ConfigValues v = d.with(PORT, 0);
    assertEquals(0, v.get(PORT));
    assertEquals(Source.CODE, v.source(PORT));
    assertEquals(8050, d.get(PORT));
    assertThrows(ConfigException.class, () -> d.with(PORT, -5));
    Setting<Integer> foreign = DaemonSettings.port(1, "another schema's");
    assertThrows(IllegalArgumentException.class, () -> d.get(foreign));
  }

  @Test
  void schema_refusesADefaultThatBreaksItsRule() {
    assertThrows(
        IllegalStateException.class,
        () -> ConfigSchema.of("bad", Setting.integer("rawPoints", 0, "Points.").atLeast(1)));
  }

  @Test
  void flags_areTheKeysInKebabCase() {
    assertEquals("--port", PORT.flag());
    assertEquals("--raw-max-age-seconds", MAX_AGE.flag());
    assertEquals("--probe-from-anyone", ANYONE.flag());
  }
}
