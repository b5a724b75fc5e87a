# embed_schema.cmake — turns store/schema.sql into a C header holding it as one string
# (ws_store_schema_sql). Run by the build as `cmake -DIN=... -DOUT=... -P embed_schema.cmake`.
file(READ ${IN} sql)
string(REPLACE "\\" "\\\\" sql "${sql}")
string(REPLACE "\"" "\\\"" sql "${sql}")
string(REPLACE "\n" "\\n\"\n\"" sql "${sql}")
file(WRITE ${OUT}.tmp "/* Generated from store/schema.sql by store/embed_schema.cmake: do not edit. */\n"
  "static const char ws_store_schema_sql[] =\n\"${sql}\";\n")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
