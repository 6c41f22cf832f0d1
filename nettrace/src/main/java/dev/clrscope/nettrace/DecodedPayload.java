package dev.clrscope.nettrace;

import java.math.BigInteger;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Decoded payload fields by name, in payload order. Values are boxed Java types: {@code Boolean},
 * {@code Character}, {@code Byte} (i8), {@code Short} (i16), {@code Integer} (u8, u16, i32), {@code
 * Long} (u32, i64, u64 below 2^63), {@link BigInteger} (u64 from 2^63), {@code Float}, {@code
 * Double}, {@link java.math.BigDecimal}, {@link java.time.Instant}, {@link Guid}, {@code String},
 * {@code List} for arrays and nested {@code Map} for structs.
 */
public final class DecodedPayload {
  /** No fields. */
  public static final DecodedPayload EMPTY = new DecodedPayload(new LinkedHashMap<>());

  private final Map<String, Object> fields;

  // LinkedHashMap in the signature says what callers must pass: a map in payload order.
  @SuppressWarnings("NonApiType")
  DecodedPayload(LinkedHashMap<String, Object> fields) {
    this.fields = Collections.unmodifiableMap(fields);
  }

  /** Wraps an ordered map (not copied; the caller must not modify it afterwards). */
  @SuppressWarnings("NonApiType")
  public static DecodedPayload of(LinkedHashMap<String, Object> fields) {
    return new DecodedPayload(fields);
  }

  /**
   * A 64-bit unsigned value as decoded payloads hold it: a Long below 2^63, else the exact
   * BigInteger, so that {@code ulong.MaxValue} prints as 18446744073709551615, not -1. {@link
   * #getLong} still returns the same 64 bits.
   */
  public static Object unsigned64(long v) {
    return v >= 0 ? (Object) v : new BigInteger(Long.toUnsignedString(v));
  }

  /** Field values by name, in payload order. */
  public Map<String, Object> asMap() {
    return fields;
  }

  /** The value of {@code name}, or null. */
  public Object get(String name) {
    return fields.get(name);
  }

  /** The value of {@code name} as a long; fails if absent or not integral. */
  public long getLong(String name) {
    Object v = fields.get(name);
    if (v instanceof Number n && !(v instanceof Float) && !(v instanceof Double)) {
      return n.longValue();
    }
    throw new IllegalArgumentException("field " + name + " is not an integer: " + v);
  }

  /** The value of {@code name} as a string; fails if absent or not a string. */
  public String getString(String name) {
    Object v = fields.get(name);
    if (v instanceof String s) {
      return s;
    }
    throw new IllegalArgumentException("field " + name + " is not a string: " + v);
  }

  public int size() {
    return fields.size();
  }

  @Override
  public String toString() {
    return fields.toString();
  }
}
