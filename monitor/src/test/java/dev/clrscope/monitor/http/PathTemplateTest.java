package dev.clrscope.monitor.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Paths of one route count together: numbers, GUIDs and long hex ids fold to {@code {id}}. */
class PathTemplateTest {
  @Test
  void idsFoldAndTheRestStays() {
    assertThat(PathTemplate.of("http://localhost:8080/orders/1234/items/5?*"))
        .isEqualTo("/orders/{id}/items/{id}");
    assertThat(PathTemplate.of("https://api:443/users/3f2504e0-4f89-11d3-9a0c-0305e82c3301/x"))
        .isEqualTo("/users/{id}/x");
    assertThat(PathTemplate.of("/blobs/0123456789abcdef0123/v2")).isEqualTo("/blobs/{id}/v2");
    // Words that happen to hold digits or a little hex are a route's own.
    assertThat(PathTemplate.of("http://h:80/v2/beef/cafe/api1")).isEqualTo("/v2/beef/cafe/api1");
    assertThat(PathTemplate.of("http://h:80")).isEqualTo("/");
    assertThat(PathTemplate.of("http://h:80/")).isEqualTo("/");
    assertThat(PathTemplate.of("http://h:80/a/#frag")).isEqualTo("/a/");
  }
}
