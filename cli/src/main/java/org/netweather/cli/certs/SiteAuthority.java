package org.netweather.cli.certs;

import java.io.IOException;
import java.io.StringWriter;
import java.io.Writer;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.netweather.runtime.auth.CallerInterceptor;
import org.netweather.runtime.auth.Role;

/**
 * A small site's certificate authority in a directory: {@code ca.crt} and its key {@code ca.key},
 * and certificates it issues to daemons and people, each with the subject alternative names
 * NetWeather reads an identity from (the host as the first DNS name, the role as the URI {@code
 * urn:netweather:role:ROLE}). Keys are EC P-256 in PKCS#8 PEM (the only form gRPC's BoringSSL
 * reads), written readable by their owner only. Nothing is ever overwritten: a site's CA key, once
 * made, is what every certificate hangs on.
 */
public final class SiteAuthority {
  static final String CA_CERT = "ca.crt";
  static final String CA_KEY = "ca.key";

  private final Path dir;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();

  public SiteAuthority(Path dir, Clock clock) {
    this.dir = dir;
    this.clock = clock;
  }

  public Path certificate() {
    return dir.resolve(CA_CERT);
  }

  /** Makes the CA: a self-signed certificate named {@code name}, valid for {@code validity}. */
  public Path create(String name, Duration validity) throws IOException, GeneralSecurityException {
    Files.createDirectories(dir);
    refuseExisting(dir.resolve(CA_CERT), dir.resolve(CA_KEY));
    KeyPair keys = newKeys();
    X500Name subject = new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, name).build();
    Instant now = clock.instant();
    X509v3CertificateBuilder builder =
        new JcaX509v3CertificateBuilder(
            subject,
            serial(),
            Date.from(now.minus(Duration.ofMinutes(5))),
            Date.from(now.plus(validity)),
            subject,
            keys.getPublic());
    JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
    builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
    builder.addExtension(
        Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
    builder.addExtension(
        Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(keys.getPublic()));
    X509Certificate cert = toCertificate(builder.build(signer(keys.getPrivate())));
    writeKey(dir.resolve(CA_KEY), keys.getPrivate());
    writePem(dir.resolve(CA_CERT), "CERTIFICATE", cert.getEncoded(), false);
    return dir.resolve(CA_CERT);
  }

  /**
   * Issues {@code out/NAME.crt} and {@code out/NAME.key} for {@code host} in {@code role}, good for
   * both sides of a connection (daemons serve and call); {@code ips} and {@code extraDns} are
   * further names the host answers to. Returns the certificate's path.
   */
  public Path issue(
      String host,
      Role role,
      List<String> ips,
      List<String> extraDns,
      Duration validity,
      Path out,
      String name)
      throws IOException, GeneralSecurityException {
    if (host.isBlank() || host.contains(",") || host.contains("/")) {
      throw new IllegalArgumentException("not a host name: '" + host + "'");
    }
    X509Certificate ca = readCertificate(dir.resolve(CA_CERT));
    PrivateKey caKey = readKey(dir.resolve(CA_KEY), ca.getPublicKey().getAlgorithm());
    Path crtFile = out.resolve(name + ".crt");
    Path keyFile = out.resolve(name + ".key");
    Files.createDirectories(out);
    refuseExisting(crtFile, keyFile);

    List<GeneralName> names = new ArrayList<>();
    names.add(new GeneralName(GeneralName.dNSName, host)); // first DNS name: the identity
    for (String dns : extraDns) {
      names.add(new GeneralName(GeneralName.dNSName, dns));
    }
    for (String ip : ips) {
      if (!ip.matches("[0-9a-fA-F:.]+")) {
        throw new IllegalArgumentException("not an IP address: '" + ip + "'");
      }
      names.add(new GeneralName(GeneralName.iPAddress, InetAddress.getByName(ip).getHostAddress()));
    }
    names.add(
        new GeneralName(
            GeneralName.uniformResourceIdentifier, CallerInterceptor.ROLE_URI + role.label()));

    KeyPair keys = newKeys();
    Instant now = clock.instant();
    Instant end = now.plus(validity);
    if (end.isAfter(ca.getNotAfter().toInstant())) {
      end = ca.getNotAfter().toInstant(); // a certificate outliving its CA would not verify anyway
    }
    X509v3CertificateBuilder builder =
        new JcaX509v3CertificateBuilder(
            ca,
            serial(),
            Date.from(now.minus(Duration.ofMinutes(5))),
            Date.from(end),
            new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, host).build(),
            keys.getPublic());
    JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
    builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
    builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
    builder.addExtension(
        Extension.extendedKeyUsage,
        false,
        new ExtendedKeyUsage(
            new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
    builder.addExtension(
        Extension.subjectAlternativeName,
        false,
        new GeneralNames(names.toArray(new GeneralName[0])));
    builder.addExtension(
        Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(keys.getPublic()));
    builder.addExtension(
        Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(ca));
    X509Certificate cert = toCertificate(builder.build(signer(caKey)));
    cert.verify(ca.getPublicKey());
    writeKey(keyFile, keys.getPrivate());
    writePem(crtFile, "CERTIFICATE", cert.getEncoded(), false);
    return crtFile;
  }

  /** Makes {@code DIR/probe.key}: 32 random bytes in hex, readable by its owner only. */
  public Path probeKey() throws IOException {
    Files.createDirectories(dir);
    Path file = dir.resolve("probe.key");
    refuseExisting(file);
    byte[] secret = new byte[32];
    random.nextBytes(secret);
    writeSecret(file, java.util.HexFormat.of().formatHex(secret) + "\n");
    return file;
  }

  private KeyPair newKeys() throws GeneralSecurityException {
    KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
    gen.initialize(new ECGenParameterSpec("secp256r1"), random);
    return gen.generateKeyPair();
  }

  private BigInteger serial() {
    return new BigInteger(127, random).add(BigInteger.ONE); // positive, unpredictable
  }

  private static ContentSigner signer(PrivateKey key) throws GeneralSecurityException {
    String alg = "EC".equals(key.getAlgorithm()) ? "SHA256withECDSA" : "SHA256withRSA";
    try {
      return new JcaContentSignerBuilder(alg).build(key);
    } catch (OperatorCreationException e) {
      throw new GeneralSecurityException("cannot sign with a " + key.getAlgorithm() + " key", e);
    }
  }

  private static X509Certificate toCertificate(X509CertificateHolder holder)
      throws IOException, GeneralSecurityException {
    return (X509Certificate)
        CertificateFactory.getInstance("X.509")
            .generateCertificate(new java.io.ByteArrayInputStream(holder.getEncoded()));
  }

  static X509Certificate readCertificate(Path file) throws IOException, GeneralSecurityException {
    if (!Files.exists(file)) {
      throw new IOException(
          file + " does not exist: make the CA first with nws certs ca --dir " + file.getParent());
    }
    try (var in = Files.newInputStream(file)) {
      return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    }
  }

  private static PrivateKey readKey(Path file, String algorithm)
      throws IOException, GeneralSecurityException {
    String pem = Files.readString(file, StandardCharsets.US_ASCII);
    String begin = "-----BEGIN PRIVATE KEY-----";
    int from = pem.indexOf(begin);
    int to = pem.indexOf("-----END PRIVATE KEY-----");
    if (from < 0 || to < 0) {
      throw new GeneralSecurityException(file + " is not a PKCS#8 PEM private key");
    }
    byte[] der = Base64.getMimeDecoder().decode(pem.substring(from + begin.length(), to));
    return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
  }

  private static void writeKey(Path file, PrivateKey key) throws IOException {
    writePem(file, "PRIVATE KEY", key.getEncoded(), true); // getEncoded() of a JCA key is PKCS#8
  }

  private static void writeSecret(Path file, String text) throws IOException {
    write(file, text, true);
  }

  private static void writePem(Path file, String type, byte[] der, boolean secret)
      throws IOException {
    Writer text = new StringWriter();
    text.write("-----BEGIN " + type + "-----\n");
    text.write(Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der));
    text.write("\n-----END " + type + "-----\n");
    write(file, text.toString(), secret);
  }

  private static void write(Path file, String text, boolean secret) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.deleteIfExists(tmp);
    try {
      Files.createFile(
          tmp,
          PosixFilePermissions.asFileAttribute(
              PosixFilePermissions.fromString(secret ? "rw-------" : "rw-r--r--")));
    } catch (UnsupportedOperationException e) {
      Files.createFile(tmp);
    }
    Files.writeString(tmp, text, StandardCharsets.US_ASCII, StandardOpenOption.WRITE);
    Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  private static void refuseExisting(Path... files) throws FileAlreadyExistsException {
    for (Path f : files) {
      if (Files.exists(f)) {
        throw new FileAlreadyExistsException(
            f.toString(), null, "exists; NetWeather never overwrites a certificate or key");
      }
    }
  }
}
