connect 'localhost:/tmp/h-hist/live.fdb';
update orders set amount = amount + 1 where id < 5000;
commit;
delete from items where id >= 25000;
commit;
set term ^;
execute block as declare i int = 20000; begin while (i < 26000) do begin insert into orders values (:i, 'cust' || mod(:i, 300), :i * 1.5, rpad('x', 150, 'z')); i = i + 1; end end^
set term ;^
commit;
