package dev.clrscope.dac;

import java.util.List;

/**
 * How a root keeps an object alive (SOS's {@code gcroot}).
 *
 * @param root the root
 * @param objects the objects from the root's object to the target, both included
 */
public record RootPath(Root root, List<Long> objects) {}
