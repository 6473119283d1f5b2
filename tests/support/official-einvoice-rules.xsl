<?xml version="1.0" encoding="UTF-8"?>
<!--
  Batch driver for the official e-invoice rules (vendor/einvoice-rules): the
  same two schematron layers as vendor/einvoice-rules/validate, over many
  documents in ONE JVM (one run of `validate` costs 2-3 s of JVM start).
  Reuses the vendored driver's functions (o:run, o:uri) by importing it.

  Parameters: list = absolute path of a text file naming one document per
  line; en-xslt and hr-xslt = absolute paths of the compiled schematrons.
  Output, per document: a line '### <path>', then one line per finding as
  `validate` prints it: <LAYER> <fatal|warning> <rule id> | <text> | <location>
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:o="urn:local:einvoice-validator"
    exclude-result-prefixes="#all">

  <xsl:import href="../../vendor/einvoice-rules/lib/run-schematron.xsl"/>

  <xsl:output method="text" encoding="UTF-8"/>

  <xsl:param name="list" as="xs:string"/>

  <xsl:template name="main">
    <xsl:for-each select="tokenize(unparsed-text(o:uri($list), 'UTF-8'), '\r?\n')[normalize-space()]">
      <xsl:variable name="doc" select="doc(o:uri(.))"/>
      <xsl:value-of select="'### ' || . || '&#10;'"/>
      <xsl:call-template name="print">
        <xsl:with-param name="layer" select="'EN16931'"/>
        <xsl:with-param name="findings" select="o:run($en-xslt, $doc)"/>
      </xsl:call-template>
      <xsl:call-template name="print">
        <xsl:with-param name="layer" select="'HR-CIUS'"/>
        <xsl:with-param name="findings" select="o:run($hr-xslt, $doc)"/>
      </xsl:call-template>
    </xsl:for-each>
  </xsl:template>

</xsl:stylesheet>
