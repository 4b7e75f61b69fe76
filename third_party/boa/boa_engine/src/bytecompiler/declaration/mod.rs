mod declaration_pattern;
