package dev.clrscope.ipc.protocol;

/** The command ids of the server's replies, sent with command set {@link CommandSet#SERVER}. */
public enum ServerResponse {
  /** 0x00: success; the payload depends on the request. */
  OK(0x00),
  /** 0xFF: failure; the payload starts with an {@code i32} HRESULT. */
  ERROR(0xFF);

  private final int id;

  ServerResponse(int id) {
    this.id = id;
  }

  /** The command id byte. */
  public int id() {
    return id;
  }
}
